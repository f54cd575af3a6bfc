import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '../../app/notify';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SCENARIO_MESSAGES, type Scenario, type ScenarioInputs } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { NamePromptModal } from './NamePromptModal';
import { saveScenario, SCENARIOS_KEY, useScenarios } from './winRate.api';

interface Props {
  /** The inputs to save, or null while they are invalid. */
  current: ScenarioInputs | null;
  onLoad: (scenario: Scenario) => void;
}

/** Load a saved scenario into every input, or save the current inputs under a name. */
export function ScenariosCard({ current, onLoad }: Props) {
  const qc = useQueryClient();
  const { data, isLoading, isError, refetch } = useScenarios();
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const selectedName = data?.find((s) => s.id === selected)?.name;

  const save = useMutation({
    mutationFn: saveScenario,
    onSuccess: async (saved) => {
      const updated = data?.some((s) => s.id === saved.id);
      await qc.invalidateQueries({ queryKey: SCENARIOS_KEY });
      setSelected(saved.id);
      setSaving(false);
      notifications.show({
        color: 'teal',
        message: updated ? `Scenario "${saved.name}" updated.` : `Scenario "${saved.name}" saved.`,
      });
    },
  });

  return (
    <Stack gap="sm">
      {isError ? (
        <Alert color="red" variant="light" title={SCENARIO_MESSAGES.loadFailed}>
          <Button size="xs" variant="light" onClick={() => void refetch()}>
            Retry
          </Button>
        </Alert>
      ) : (
        <Select
          label="Load a scenario"
          placeholder={
            isLoading ? 'Loading scenarios…' : data?.length ? 'Choose a scenario' : 'No saved scenarios yet'
          }
          disabled={!data || data.length === 0}
          data={(data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={selected}
          searchable
          nothingFoundMessage="No scenario of that name"
          onChange={(id) => {
            const s = data?.find((x) => x.id === id);
            setSelected(id);
            if (s) onLoad(s);
          }}
        />
      )}
      <Group justify="space-between" align="center">
        <Text size="xs" c="dimmed">
          Saving under an existing name updates that scenario.
        </Text>
        <Button
          leftSection={<IconDeviceFloppy size={16} />}
          variant="light"
          disabled={!current}
          onClick={() => {
            save.reset();
            setSaving(true);
          }}
        >
          Save scenario…
        </Button>
      </Group>
      {!current && (
        <Text size="xs" c="dimmed">
          Fix the inputs to save them as a scenario.
        </Text>
      )}
      <NamePromptModal
        opened={saving}
        title="Save scenario"
        label="Scenario name"
        initialName={selectedName}
        submitLabel="Save"
        pending={save.isPending}
        error={
          save.isError ? { title: SCENARIO_MESSAGES.saveFailed, detail: errorMessage(save.error, '') } : null
        }
        onClose={() => setSaving(false)}
        onSubmit={(name) => current && save.mutate({ name, inputs: current })}
      />
    </Stack>
  );
}
