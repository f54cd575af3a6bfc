import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { SNAPSHOT_MESSAGES, type IndicatorSettings } from '@tradedesk/contract';
import { FieldInput } from './FieldInput';
import { OSCILLATORS, OVERLAYS, type IndicatorSpec } from './indicatorFields';
import {
  addEmaPeriod,
  numberOrNull,
  removeEmaPeriod,
  setIndicator,
  setOverride,
  type TemplateDraft,
} from './templateForm';

export type FormMode = 'create' | 'edit' | 'view';

function EmaFields({
  s,
  onChange,
  readOnly,
}: {
  s: IndicatorSettings;
  onChange: (s: IndicatorSettings) => void;
  readOnly: boolean;
}) {
  const e = s.emas;
  return (
    <Fieldset legend="EMA">
      <Stack gap="xs">
        <Checkbox
          label="Enable EMA"
          checked={e.enabled}
          onChange={(ev) => onChange(setIndicator(s, 'emas', { enabled: ev.currentTarget.checked }))}
          disabled={readOnly}
        />
        <FieldInput
          kind="source"
          label="Source"
          value={e.source}
          onChange={(v) => onChange(setIndicator(s, 'emas', { source: v as typeof e.source }))}
          readOnly={readOnly}
        />
        {e.periods.map((period, i) => {
          const o = e.overrides?.[i];
          const setOverrideAt = (name: string, v: unknown) =>
            onChange(
              setIndicator(s, 'emas', {
                overrides: (e.overrides ?? []).map((x, k) => (k === i ? { ...x, [name]: v } : x)),
              }),
            );
          return (
            <Group key={i} align="flex-end" gap="xs" aria-label={`EMA period ${i + 1}`}>
              <FieldInput
                kind="int"
                label={`Period ${i + 1}`}
                value={period}
                onChange={(v) =>
                  onChange(
                    setIndicator(s, 'emas', {
                      periods: e.periods.map((p, k) => (k === i ? numberOrNull(v as number | null) : p)),
                    }),
                  )
                }
                readOnly={readOnly}
              />
              <FieldInput
                kind="colour"
                label={`Period ${i + 1} Colour`}
                value={o?.['Plot.color']}
                onChange={(v) => setOverrideAt('Plot.color', v)}
                readOnly={readOnly}
              />
              <FieldInput
                kind="width"
                label={`Period ${i + 1} Line Width`}
                value={o?.['Plot.linewidth']}
                onChange={(v) => setOverrideAt('Plot.linewidth', v)}
                readOnly={readOnly}
              />
              {!readOnly && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove EMA period ${i + 1}`}
                  onClick={() => onChange(removeEmaPeriod(s, i))}
                  mb={4}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          );
        })}
        {!readOnly && (
          <Button
            variant="light"
            size="xs"
            w="fit-content"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange(addEmaPeriod(s))}
          >
            Add EMA Period
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}

function IndicatorFieldset({
  spec,
  s,
  onChange,
  readOnly,
}: {
  spec: IndicatorSpec;
  s: IndicatorSettings;
  onChange: (s: IndicatorSettings) => void;
  readOnly: boolean;
}) {
  const ind = s[spec.key] as unknown as Record<string, unknown> & {
    enabled: boolean;
    overrides: Record<string, unknown>;
  };
  return (
    <Fieldset legend={spec.title}>
      <Stack gap="xs">
        <Checkbox
          label={`Enable ${spec.title}`}
          checked={ind.enabled}
          onChange={(ev) => onChange(setIndicator(s, spec.key, { enabled: ev.currentTarget.checked }))}
          disabled={readOnly}
        />
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          {spec.params.map((f) => (
            <FieldInput
              key={f.key}
              kind={f.kind}
              label={f.label}
              value={ind[f.key]}
              onChange={(v) => onChange(setIndicator(s, spec.key, { [f.key]: v }))}
              readOnly={readOnly}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
          {spec.overrides.map((f) => (
            <FieldInput
              key={f.key}
              kind={f.kind}
              label={f.label}
              value={ind.overrides[f.key]}
              onChange={(v) => onChange(setOverride(s, spec.key, f.key as never, v))}
              readOnly={readOnly}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}

/** Create, edit or view a template: name, global flag and every indicator with its parameters. */
export function TemplateForm({
  mode,
  initial,
  onCancel,
  onSubmit,
  error,
  busy,
}: {
  mode: FormMode;
  initial: TemplateDraft;
  onCancel: () => void;
  onSubmit: (draft: TemplateDraft) => void;
  error: string | null;
  busy: boolean;
}) {
  const [draft, setDraft] = useState<TemplateDraft>(initial);
  const [nameError, setNameError] = useState<string | null>(null);
  const readOnly = mode === 'view';
  const settings = draft.indicator_settings;
  const setSettings = (indicator_settings: IndicatorSettings) => setDraft({ ...draft, indicator_settings });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.name.trim()) return setNameError(SNAPSHOT_MESSAGES.nameRequired);
    setNameError(null);
    onSubmit({ ...draft, name: draft.name.trim() });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Indicator template form">
      <Stack gap="sm">
        <TextInput
          label="Template Name"
          withAsterisk
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
          error={nameError}
          readOnly={readOnly}
          data-autofocus
        />
        <Checkbox
          label="Global (visible to all users)"
          checked={draft.is_global}
          onChange={(e) => setDraft({ ...draft, is_global: e.currentTarget.checked })}
          disabled={readOnly}
        />
        <EmaFields s={settings} onChange={setSettings} readOnly={readOnly} />
        {[...OVERLAYS, ...OSCILLATORS].map((spec) => (
          <IndicatorFieldset
            key={spec.key}
            spec={spec}
            s={settings}
            onChange={setSettings}
            readOnly={readOnly}
          />
        ))}
        {readOnly && (
          <Text size="sm" c="dimmed">
            This template belongs to another user: you can view it but not change it.
          </Text>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          {!readOnly && (
            <Button type="submit" loading={busy}>
              {mode === 'create' ? 'Create Template' : 'Save Changes'}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
