import { useState } from 'react';
import { Modal, NumberInput, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlatformName, TradingAccount } from '@tradedesk/contract';
import { errorMessage } from '../../app/errors';
import { FormActions } from '../../app/FormActions';
import {
  ACCOUNT_TEXT,
  ACCOUNTS_KEY,
  createAccount,
  PLATFORM_LABEL,
  type AccountCreateInput,
} from './accounts.api';

const PLATFORMS: Array<{ value: PlatformName; label: string }> = [
  { value: 'MT5', label: PLATFORM_LABEL.MT5 },
  { value: 'cTrader', label: PLATFORM_LABEL.cTrader },
  { value: 'SIM', label: PLATFORM_LABEL.SIM },
];

/** Currencies the simulator prices (it converts P/L through its own cross rates). */
const SIM_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'CHF', 'NZD'];

interface Values {
  name: string;
  platform: PlatformName;
  broker: string;
  account_number: string;
  password: string;
  broker_server: string;
  currency: string;
  balance: number | string;
  leverage: number | string;
}

const INITIAL: Values = {
  name: '',
  platform: 'SIM',
  broker: '',
  account_number: '',
  password: '',
  broker_server: '',
  currency: 'USD',
  balance: 10000,
  leverage: 100,
};

const required = (v: string) => (v.trim() ? null : ACCOUNT_TEXT.required);
const mt5Required = (v: string, values: Values) => (values.platform === 'MT5' ? required(v) : null);

function toBody(v: Values): AccountCreateInput {
  const base = { name: v.name.trim(), platform: v.platform };
  if (v.platform === 'SIM') {
    return {
      ...base,
      currency: v.currency,
      ...(typeof v.balance === 'number' ? { balance: v.balance } : {}),
      ...(typeof v.leverage === 'number' ? { leverage: v.leverage } : {}),
    };
  }
  const broker = v.broker.trim() ? { broker: v.broker.trim() } : {};
  if (v.platform === 'cTrader') return { ...base, ...broker };
  return {
    ...base,
    ...broker,
    account_number: v.account_number.trim(),
    password: v.password,
    broker_server: v.broker_server.trim(),
  };
}

/** Add New Account: name and platform; MT5 also account number, password and broker server. */
export function AddAccountModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (account: TradingAccount) => void;
}) {
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: INITIAL,
    validate: {
      name: required,
      account_number: mt5Required,
      password: mt5Required,
      broker_server: mt5Required,
      balance: (v, values) =>
        values.platform === 'SIM' && !(typeof v === 'number' && v > 0)
          ? 'Enter a starting balance above 0.'
          : null,
      leverage: (v, values) =>
        values.platform === 'SIM' && !(typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1000)
          ? 'Enter a leverage from 1 to 1000.'
          : null,
    },
  });

  const close = () => {
    form.reset();
    setError(null);
    create.reset();
    onClose();
  };

  const create = useMutation({
    mutationFn: createAccount,
    onSuccess: async (account) => {
      await qc.invalidateQueries({ queryKey: ACCOUNTS_KEY });
      onCreated?.(account);
      close();
    },
    onError: (err) => setError(errorMessage(err, ACCOUNT_TEXT.createFailed)),
  });

  const platform = form.values.platform;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Add New Account"
      size="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setError(null);
          create.mutate(toBody(values));
        })}
      >
        <Stack gap="sm">
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Platform"
            withAsterisk
            data={PLATFORMS}
            allowDeselect={false}
            {...form.getInputProps('platform')}
          />
          {platform !== 'SIM' && (
            <TextInput label="Broker" placeholder="e.g. IC Markets" {...form.getInputProps('broker')} />
          )}
          {platform === 'MT5' && (
            <>
              <TextInput
                label="Account number"
                withAsterisk
                inputMode="numeric"
                {...form.getInputProps('account_number')}
              />
              <PasswordInput label="Password" withAsterisk {...form.getInputProps('password')} />
              <TextInput
                label="Broker server"
                withAsterisk
                placeholder="e.g. ICMarketsSC-Demo"
                {...form.getInputProps('broker_server')}
              />
            </>
          )}
          {platform === 'cTrader' && (
            <Text size="sm" c="dimmed">
              After saving, use Connect on the account to sign in with cTrader and pick the trading account.
            </Text>
          )}
          {platform === 'SIM' && (
            <>
              <Select
                label="Currency"
                data={SIM_CURRENCIES}
                allowDeselect={false}
                {...form.getInputProps('currency')}
              />
              <NumberInput
                label="Starting balance"
                min={1}
                thousandSeparator=","
                decimalScale={2}
                {...form.getInputProps('balance')}
              />
              <NumberInput
                label="Leverage"
                description="1:N, from 1 to 1000"
                min={1}
                max={1000}
                allowDecimal={false}
                {...form.getInputProps('leverage')}
              />
            </>
          )}
          <FormActions error={error} onCancel={close} submitLabel="Add Account" pending={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
