import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '../../app/notify';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PROFIT_PROFILE_MESSAGES, type ProfitProfile } from '@tradedesk/contract';
import { describeTargets } from './winRateForm';
import { riskSettingsKey, setDefaultTpProfile, useAccounts, useAccountsRiskSettings } from './winRate.api';

/** Makes a profile the default take-profit profile of one or more of the user's accounts. */
export function ApplyProfileModal({
  profile,
  onClose,
}: {
  profile: ProfitProfile | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={!!profile} onClose={onClose} title={profile ? `Apply "${profile.name}" to accounts` : ''}>
      {profile && <ApplyForm profile={profile} onClose={onClose} />}
    </Modal>
  );
}

function ApplyForm({ profile, onClose }: { profile: ProfitProfile; onClose: () => void }) {
  const qc = useQueryClient();
  const accounts = useAccounts(true);
  const ids = (accounts.data ?? []).map((a) => a.id);
  const settings = useAccountsRiskSettings(ids, accounts.isSuccess);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  const apply = useMutation({
    mutationFn: async (accountIds: string[]) => {
      const results = await Promise.allSettled(accountIds.map((id) => setDefaultTpProfile(id, profile.id)));
      await Promise.all(accountIds.map((id) => qc.invalidateQueries({ queryKey: riskSettingsKey(id) })));
      if (results.some((r) => r.status === 'rejected')) throw new Error('apply failed');
      return accountIds.length;
    },
    onSuccess: (n) => {
      notifications.show({
        color: 'teal',
        message: `"${profile.name}" is now the default TP profile of ${n} account${n === 1 ? '' : 's'}.`,
      });
      onClose();
    },
    onError: () => setError(PROFIT_PROFILE_MESSAGES.applyFailed),
  });

  function submit() {
    if (chosen.length === 0) return setError(PROFIT_PROFILE_MESSAGES.selectAccount);
    setError(null);
    apply.mutate(chosen);
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {describeTargets(profile)}
      </Text>
      {accounts.isLoading ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Loading your accounts…</Text>
        </Group>
      ) : accounts.isError ? (
        <Alert color="red" variant="light" role="alert" title={PROFIT_PROFILE_MESSAGES.accountsFailed}>
          <Button size="xs" variant="light" onClick={() => void accounts.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : ids.length === 0 ? (
        <Text size="sm">You have no trading accounts yet. Add one under Manage Accounts.</Text>
      ) : (
        <Checkbox.Group
          label="Accounts"
          description="The profile becomes each chosen account's default take-profit profile."
          value={chosen}
          onChange={(v) => {
            setChosen(v);
            setError(null);
          }}
        >
          <Stack gap="xs" mt="xs">
            {accounts.data!.map((a, i) => {
              const current = settings[i]?.data?.default_tp_profile;
              return (
                <Checkbox
                  key={a.id}
                  value={a.id}
                  label={`${a.name} (${a.platform})`}
                  description={
                    settings[i]?.isLoading
                      ? 'Loading its default TP profile…'
                      : current
                        ? `Default TP profile: ${current.name}`
                        : 'No default TP profile'
                  }
                />
              );
            })}
          </Stack>
        </Checkbox.Group>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={apply.isPending} disabled={!accounts.isSuccess || ids.length === 0}>
          Apply
        </Button>
      </Group>
    </Stack>
  );
}
