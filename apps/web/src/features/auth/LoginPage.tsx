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
import { bootstrapStatus, tokenResponse } from '@tradedesk/contract';
import { api } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { session } from '../../app/session';
import { ThemeToggle } from '../../app/ThemeToggle';
import { PRODUCT_TITLE } from '../../app/AppLayout';

export const LOGIN_FAILED = 'Login failed';

function CreateFirstUser({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!username.trim() || !password) return setError('Enter a username and a password.');
    if (password.length < 8) return setError('The password must contain at least 8 characters.');
    if (password !== confirm) return setError('The two passwords differ.');
    setBusy(true);
    setError(null);
    try {
      const t = await api.post(
        '/users/bootstrap/',
        { username: username.trim(), password },
        { schema: tokenResponse },
      );
      session.store(t.access, t.refresh);
      onDone();
    } catch (err) {
      setError(errorMessage(err, 'Could not create the first user.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Title order={2}>Welcome to {PRODUCT_TITLE}</Title>
        <Text c="dimmed" size="sm">
          No user exists yet. Create the first user; it can manage global watchlist items.
        </Text>
        <TextInput
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          required
          data-autofocus
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          required
          description="At least 8 characters"
        />
        <PasswordInput
          label="Confirm password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          required
        />
        {error && (
          <Alert color="red" role="alert" variant="light">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          Create first user
        </Button>
      </Stack>
    </form>
  );
}

export function LoginPage() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const status = useQuery({
    queryKey: ['bootstrap-status'],
    queryFn: () => api.get('/users/bootstrap/', { schema: bootstrapStatus }),
    retry: false,
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const t = await api.post('/token/', { username, password }, { schema: tokenResponse });
      session.store(t.access, t.refresh);
      navigate('/dashboard');
    } catch (err) {
      setError(errorMessage(err, LOGIN_FAILED));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
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
              <Title order={2}>Login</Title>
              <TextInput
                label="Username"
                name="username"
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
                data-autofocus
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              {error && (
                <Alert color="red" role="alert" variant="light">
                  {error}
                </Alert>
              )}
              <Button type="submit" loading={busy}>
                Login
              </Button>
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
