import { useState } from 'react';
import { Alert, Button, Divider, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '../../app/notify';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { FormActions } from '../../app/FormActions';
import {
  ACCOUNT_TEXT,
  ACCOUNTS_KEY,
  deleteAccount,
  updateAccount,
  type AccountUpdateInput,
} from './accounts.api';
import { RiskSettingsPanel } from '../risk/RiskSettingsPanel';

/**
 * Edit Account: name, broker, username and password (blank keeps the stored one), and Delete Account
 * behind a confirmation. Rendered only while an account is being edited, so the form starts from it.
 */
export function EditAccountModal({ account, onClose }: { account: TradingAccount; onClose: () => void }) {
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<AccountUpdateInput>({
    mode: 'controlled',
    initialValues: { name: account.name, broker: account.broker, username: account.username, password: '' },
    validate: { name: (v) => (v.trim() ? null : ACCOUNT_TEXT.required) },
  });

  const save = useMutation({
    mutationFn: (body: AccountUpdateInput) => updateAccount(account.id, body),
    onSuccess: async () => {
      notifications.show({ message: 'Account updated', color: 'teal' });
      await qc.invalidateQueries({ queryKey: ACCOUNTS_KEY });
      onClose();
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const remove = useMutation({
    mutationFn: () => deleteAccount(account.id),
    onSuccess: async () => {
      notifications.show({ message: `Account ${account.name} deleted`, color: 'teal' });
      await qc.invalidateQueries({ queryKey: ACCOUNTS_KEY });
      onClose();
    },
    onError: (err) => {
      setConfirming(false);
      setError(errorMessage(err, ACCOUNT_TEXT.deleteFailed));
    },
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title="Edit Account"
      size="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setError(null);
          save.mutate({
            name: values.name.trim(),
            broker: values.broker.trim(),
            username: values.username.trim(),
            password: values.password,
          });
        })}
      >
        <Stack gap="sm">
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Broker" {...form.getInputProps('broker')} />
          {/* The simulator has no login: its username and password would never be used. */}
          {account.platform !== 'SIM' && (
            <>
              <TextInput label="Username" {...form.getInputProps('username')} />
              <PasswordInput
                label="Password"
                description="Leave blank to keep the stored password."
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
            </>
          )}
          <FormActions error={error} onCancel={onClose} submitLabel="Save" pending={save.isPending} />
        </Stack>
      </form>
      <RiskSettingsPanel accountId={account.id} />
      <Divider my="md" />
      {confirming ? (
        <Alert
          color="red"
          variant="light"
          title="Delete Account"
          role="alertdialog"
          aria-label="Confirm delete"
        >
          <Stack gap="sm">
            <Text size="sm">
              Delete {account.name}? Its stored details
              {account.platform === 'SIM' ? ', positions and history' : ''} are removed. This cannot be
              undone.
            </Text>
            <Group gap="sm">
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                Yes, delete
              </Button>
              {/* Focus lands on the safe choice when the confirmation appears. */}
              <Button
                variant="default"
                onClick={() => setConfirming(false)}
                disabled={remove.isPending}
                autoFocus
              >
                Keep account
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : (
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
        >
          Delete Account
        </Button>
      )}
    </Modal>
  );
}
