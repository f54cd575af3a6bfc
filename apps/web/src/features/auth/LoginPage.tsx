import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { bootstrapStatus, PASSWORD_MIN_LENGTH, tokenResponse } from '@tradedesk/contract';
import { api } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { session } from '../../app/session';
import { ThemeToggle } from '../../app/ThemeToggle';
import { PRODUCT_TITLE } from '../../app/product';

export const LOGIN_FAILED = 'Login failed';

/** A form's request state: busy while it runs, and its failure in the server's words. */
function useSubmission(fallback: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(task: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (err) {
      setError(errorMessage(err, fallback));
    } finally {
      setBusy(false);
    }
  }
  return { error, setError, busy, run };
}

/** Username and password as both forms ask them; a new password is required and described. */
function CredentialFields({
  username,
  password,
  onUsername,
  onPassword,
  isNew,
}: {
  username: string;
  password: string;
  onUsername: (v: string) => void;
  onPassword: (v: string) => void;
  isNew: boolean;
}) {
  return (
    <>
      <TextInput
        label="Username"
        name="username"
        autoComplete="username"
        value={username}
        onChange={(e) => onUsername(e.currentTarget.value)}
        required={isNew}
        data-autofocus
      />
      <PasswordInput
        label="Password"
        name="password"
        autoComplete={isNew ? 'new-password' : 'current-password'}
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        required={isNew}
        description={isNew ? `At least ${PASSWORD_MIN_LENGTH} characters, not a common password` : undefined}
      />
    </>
  );
}

/** The failure, if any, above the form's one button. */
function SubmitRow({ error, busy, label }: { error: string | null; busy: boolean; label: string }) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" variant="light">
          {error}
        </Alert>
      )}
      <Button type="submit" loading={busy}>
        {label}
      </Button>
    </>
  );
}

function CreateFirstUser({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { error, setError, busy, run } = useSubmission('Could not create the first user.');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) return setError('Enter a username and a password.');
    if (password.length < PASSWORD_MIN_LENGTH)
      return setError(`The password must contain at least ${PASSWORD_MIN_LENGTH} characters.`);
    if (password !== confirm) return setError('The two passwords differ.');
    await run(async () => {
      const t = await api.post(
        '/users/bootstrap/',
        { username: username.trim(), password },
        { schema: tokenResponse },
      );
      session.store(t.access, t.refresh);
      onDone();
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Title order={1} size="h2">
          Welcome to {PRODUCT_TITLE}
        </Title>
        <Text c="dimmed" size="sm">
          No user exists yet. Create the first user; it can manage global watchlist items.
        </Text>
        <CredentialFields
          username={username}
          password={password}
          onUsername={setUsername}
          onPassword={setPassword}
          isNew
        />
        <PasswordInput
          label="Confirm password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          required
        />
        <SubmitRow error={error} busy={busy} label="Create first user" />
      </Stack>
    </form>
  );
}

export function LoginPage() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useSubmission(LOGIN_FAILED);
  const status = useQuery({
    queryKey: ['bootstrap-status'],
    queryFn: () => api.get('/users/bootstrap/', { schema: bootstrapStatus }),
    retry: false,
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    await run(async () => {
      const t = await api.post('/token/', { username, password }, { schema: tokenResponse });
      session.store(t.access, t.refresh);
      navigate('/dashboard');
    });
  }

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={400} maw="100%">
        {status.isLoading ? (
          <Center p="lg">
            <Loader />
          </Center>
        ) : status.data?.needs_bootstrap ? (
          <CreateFirstUser onDone={() => navigate('/dashboard')} />
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <Title order={1} size="h2">
                Login
              </Title>
              <CredentialFields
                username={username}
                password={password}
                onUsername={setUsername}
                onPassword={setPassword}
                isNew={false}
              />
              <SubmitRow error={error} busy={busy} label="Login" />
              <Anchor component={Link} to="/" size="sm" ta="center">
                Back to the home page
              </Anchor>
            </Stack>
          </form>
        )}
      </Paper>
      <ThemeToggle />
    </Center>
  );
}
