import { Alert, Button, Group } from '@mantine/core';

/** The foot of a modal form: the request's failure (if any), then Cancel and the submit button. */
export function FormActions({
  error,
  onCancel,
  submitLabel,
  pending,
}: {
  /** A message, or a titled failure (a spec title with the server's detail under it). */
  error: string | { title: string; detail?: string } | null;
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
}) {
  return (
    <>
      {typeof error === 'string' ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : (
        error && (
          <Alert color="red" variant="light" role="alert" title={error.title}>
            {error.detail}
          </Alert>
        )
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
