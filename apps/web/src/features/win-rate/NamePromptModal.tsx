import { useState, type FormEvent, type ReactNode } from 'react';
import { Modal, Stack, TextInput } from '@mantine/core';
import { FormActions } from '../../app/FormActions';

interface Props {
  opened: boolean;
  title: string;
  label: string;
  initialName?: string;
  submitLabel: string;
  /** Title of the failure alert (a spec message such as `Failed to save profile.`). */
  error: { title: string; detail?: string } | null;
  pending: boolean;
  onClose: () => void;
  onSubmit: (name: string) => void;
  children?: ReactNode;
}

/** Asks for a name before saving; keeps the modal open with the failure when the save fails. */
export function NamePromptModal(props: Props) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      {props.opened && <NameForm {...props} />}
    </Modal>
  );
}

function NameForm({ label, initialName, submitLabel, error, pending, onClose, onSubmit, children }: Props) {
  const [name, setName] = useState(initialName ?? '');
  const [missing, setMissing] = useState(false);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setMissing(true);
    onSubmit(name.trim());
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={label}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setMissing(false);
          }}
          error={missing ? 'Please enter a name.' : undefined}
          maxLength={100}
          required
          data-autofocus
        />
        {children}
        <FormActions error={error} onCancel={onClose} submitLabel={submitLabel} pending={pending} />
      </Stack>
    </form>
  );
}
