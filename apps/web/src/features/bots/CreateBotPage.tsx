import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bot } from '@tradedesk/contract';
import { useNavigate } from 'react-router';
import { api } from '../../app/api';
import { useAccounts } from '../accounts/accounts.api';
import { BOT_TEXT, botsKey, useTemplates } from './bots.api';

/** Create bot (`/bots/new`): Bot Name, Trading Account, Strategy Template. */
export function CreateBotPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const accounts = useAccounts();
  const templates = useTemplates();
  const [name, setName] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [template, setTemplate] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      api.post('/bots/bots/', { name, account_id: account, strategy_template: template }, { schema: bot }),
    onSuccess: async (b) => {
      await qc.invalidateQueries({ queryKey: botsKey });
      void navigate(`/bots/${b.id}`);
    },
  });
  const required = 'This field is required.';
  return (
    <Stack gap="md" maw={520}>
      <Title order={1} size="h2">
        Create Bot
      </Title>
      {accounts.isError && <Alert color="red">{`${BOT_TEXT.loadAccounts} ${BOT_TEXT.tryAgain}`}</Alert>}
      {templates.isError && <Alert color="red">{`${BOT_TEXT.loadTemplates} ${BOT_TEXT.tryAgain}`}</Alert>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setMissing(true);
          if (name.trim() && account && template) save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Bot Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={missing && !name.trim() ? required : null}
          />
          <Select
            label="Trading Account"
            data={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
            value={account}
            onChange={setAccount}
            error={missing && !account ? required : null}
          />
          <Select
            label="Strategy Template"
            data={(templates.data ?? []).map((t) => ({ value: t.filename, label: t.display_name }))}
            value={template}
            onChange={setTemplate}
            error={missing && !template ? required : null}
          />
          {save.isError && <Alert color="red">{BOT_TEXT.saveBot}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate('/bots')}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Create Bot
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
