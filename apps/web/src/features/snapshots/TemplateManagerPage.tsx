import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { SnapshotConfig } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { useMe } from '../../app/useSession';
import {
  createConfig,
  deleteConfig,
  TEMPLATE_TEXT,
  updateConfig,
  useInvalidateConfigs,
  useSnapshotConfigList,
} from './snapshotConfigs.api';
import { TemplateForm, type FormMode } from './TemplateForm';
import { emptyDraft, isOwner, templateType, type TemplateDraft } from './templateForm';

interface Editing {
  mode: FormMode;
  config?: SnapshotConfig;
}

/** Chart snapshot template manager: the templates the user sees, and the form to create, edit or view one. */
export function TemplateManagerPage() {
  const me = useMe();
  const list = useSnapshotConfigList();
  const invalidate = useInvalidateConfigs();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const userId = me.data ? String(me.data.id) : undefined;

  const open = (e: Editing) => {
    setError(null);
    setEditing(e);
  };

  async function save(draft: TemplateDraft) {
    if (!editing) return;
    setBusy(true);
    setError(null);
    try {
      if (editing.mode === 'edit' && editing.config) await updateConfig(editing.config.id, draft);
      else await createConfig(draft);
      await invalidate();
      setEditing(null);
    } catch (e) {
      // Server field errors read "field: messages", joined by '; ' (spec section 8).
      setError(errorMessage(e, TEMPLATE_TEXT.saveFailed));
    } finally {
      setBusy(false);
    }
  }

  function confirmDelete(config: SnapshotConfig) {
    modals.openConfirmModal({
      title: `Delete ${config.name}?`,
      children: <Text size="sm">{TEMPLATE_TEXT.deleteConfirm}</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          const res = await deleteConfig(config.id);
          notifications.show({
            color: 'teal',
            message: res?.message ?? 'Configuration deleted successfully',
          });
          await invalidate();
        } catch (e) {
          notifications.show({ color: 'red', message: errorMessage(e, TEMPLATE_TEXT.deleteFailed) });
        }
      },
    });
  }

  const rows = list.data ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Chart Snapshot Configs
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open({ mode: 'create' })}>
          Create New Indicator Template
        </Button>
      </Group>
      {me.isError && (
        <Alert color="red" variant="light">
          {TEMPLATE_TEXT.userFailed}
        </Alert>
      )}
      {list.isLoading ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <Alert color="red" variant="light">
          {errorMessage(list.error, TEMPLATE_TEXT.fetchFailed)}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No templates yet. Create one to use it for automated chart snapshots.</Text>
      ) : (
        <Table striped withTableBorder aria-label="Indicator templates">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Template Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={c.is_global ? 'grape' : 'gray'}>
                    {templateType(c, userId)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {isOwner(c, userId) ? (
                    <Group gap="xs">
                      <Button size="xs" variant="light" onClick={() => open({ mode: 'edit', config: c })}>
                        Edit
                      </Button>
                      <Button size="xs" variant="light" color="red" onClick={() => confirmDelete(c)}>
                        Delete
                      </Button>
                    </Group>
                  ) : (
                    <Button size="xs" variant="default" onClick={() => open({ mode: 'view', config: c })}>
                      View
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={!!editing}
        onClose={() => setEditing(null)}
        size="xl"
        title={
          editing?.mode === 'create'
            ? 'Create New Indicator Template'
            : editing?.mode === 'edit'
              ? 'Edit Indicator Template'
              : 'View Indicator Template'
        }
      >
        {editing && (
          <TemplateForm
            mode={editing.mode}
            initial={
              editing.config
                ? {
                    name: editing.config.name,
                    is_global: editing.config.is_global,
                    indicator_settings: editing.config.indicator_settings,
                  }
                : emptyDraft()
            }
            onCancel={() => setEditing(null)}
            onSubmit={(d) => void save(d)}
            error={error}
            busy={busy}
          />
        )}
      </Modal>
    </Stack>
  );
}
