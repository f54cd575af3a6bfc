import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PROFIT_PROFILE_MESSAGES, type ProfitProfile } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { ApplyProfileModal } from './ApplyProfileModal';
import { NamePromptModal } from './NamePromptModal';
import { createProfitProfile, PROFILES_KEY, useProfitProfiles } from './winRate.api';
import { profileTargetsFromSplits, type WinRateForm } from './winRateForm';

interface Props {
  splits: WinRateForm['splits'];
  onUse: (profile: ProfitProfile) => void;
}

/** The user's profit profiles as cards; save the current splits as one; apply one to accounts. */
export function ProfileCards({ splits, onUse }: Props) {
  const qc = useQueryClient();
  const { data, isLoading, isError, refetch } = useProfitProfiles();
  const [naming, setNaming] = useState(false);
  const [makeDefault, setMakeDefault] = useState(false);
  const [applying, setApplying] = useState<ProfitProfile | null>(null);

  const save = useMutation({
    mutationFn: createProfitProfile,
    onSuccess: async (p) => {
      await qc.invalidateQueries({ queryKey: PROFILES_KEY });
      setNaming(false);
      notifications.show({ color: 'teal', message: `Profile "${p.name}" saved.` });
    },
  });

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Profit profiles
        </Title>
        <Button
          leftSection={<IconPlus size={16} />}
          variant="light"
          onClick={() => {
            save.reset();
            setMakeDefault(false);
            setNaming(true);
          }}
        >
          Save current splits as profile…
        </Button>
      </Group>
      {isError ? (
        <Alert color="red" variant="light" title="Could not load your profit profiles.">
          <Button size="xs" variant="light" onClick={() => void refetch()}>
            Retry
          </Button>
        </Alert>
      ) : isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={140} radius="md" />
          ))}
        </SimpleGrid>
      ) : !data || data.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed" ta="center">
            No profit profiles yet. Save the current splits as your first profile.
          </Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="list" aria-label="Profit profiles">
          {data.map((p) => (
            <Card key={p.id} withBorder padding="md" role="listitem" aria-label={p.name}>
              <Stack gap="xs" h="100%" justify="space-between">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600} truncate>
                      {p.name}
                    </Text>
                    {p.is_default && (
                      <Badge color="blue" variant="filled" size="sm">
                        Default
                      </Badge>
                    )}
                  </Group>
                  <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {p.partial_targets.map((t, i) => (
                      <Text component="li" size="sm" key={i}>
                        Target {i + 1}: {t.size_pct}% at {t.r_multiple}R
                      </Text>
                    ))}
                  </Stack>
                </Stack>
                <Group gap="xs">
                  <Button size="xs" variant="default" onClick={() => onUse(p)}>
                    Use splits
                  </Button>
                  <Button size="xs" variant="light" onClick={() => setApplying(p)}>
                    Apply to accounts…
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <NamePromptModal
        opened={naming}
        title="Save current splits as a profile"
        label="Profile name"
        submitLabel="Save profile"
        pending={save.isPending}
        error={
          save.isError
            ? { title: PROFIT_PROFILE_MESSAGES.saveFailed, detail: errorMessage(save.error, '') }
            : null
        }
        onClose={() => setNaming(false)}
        onSubmit={(name) =>
          save.mutate({ name, partial_targets: profileTargetsFromSplits(splits), is_default: makeDefault })
        }
      >
        <Text size="sm" c="dimmed">
          {profileTargetsFromSplits(splits)
            .map(
              (t) =>
                `${Number.isNaN(t.size_pct) ? '?' : t.size_pct}% at ${Number.isNaN(t.r_multiple) ? '?' : t.r_multiple}R`,
            )
            .join(' · ') || 'No target has a size.'}
        </Text>
        <Checkbox
          label="Make this my default profile"
          checked={makeDefault}
          onChange={(e) => setMakeDefault(e.currentTarget.checked)}
        />
      </NamePromptModal>
      <ApplyProfileModal profile={applying} onClose={() => setApplying(null)} />
    </Stack>
  );
}
