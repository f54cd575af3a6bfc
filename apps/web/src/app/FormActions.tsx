import { Alert, Button, Group } from '@mantine/core';

/** The foot of a modal form: the request's failure (if any), then Cancel and the submit button. */
export function FormActions({
  error,
  onCancel,
  submitLabel,
  pending,
}: {
  error: string | null;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}) {
  return (
    <>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
