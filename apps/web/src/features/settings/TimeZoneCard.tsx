import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { USER_SETTINGS_MESSAGES, type UserSettingsUpdate } from '@tradedesk/contract';
import { timeZoneNames } from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { notifications } from '../../app/notify';
import { browserTimeZone, patchUserSettings, userSettingsKey, useUserSettings } from './userSettings.api';

/**
 * The trader's time zone: reports read days, weekdays and hours in it, and the dashboard's strip its
 * "today". With none saved, the browser's zone is used and shown marked "(browser)".
 */
export function TimeZoneCard() {
  const qc = useQueryClient();
  const settings = useUserSettings();
  const saved = settings.data?.time_zone ?? null;
  const browser = useMemo(browserTimeZone, []);
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (settings.data) setValue(settings.data.time_zone ?? browser);
  }, [settings.data, browser]);

  const options = useMemo(() => {
    const names = timeZoneNames();
    // A browser may name its zone with an alias the list leaves out; it is still offered (the server decides).
    if (!names.includes(browser)) names.push(browser);
    return names.map((zone) => ({
      value: zone,
      label: !saved && zone === browser ? `${zone} (browser)` : zone,
    }));
  }, [browser, saved]);

  const save = useMutation({
    mutationFn: (body: UserSettingsUpdate) => patchUserSettings(body),
    onSuccess: (data) => {
      qc.setQueryData(userSettingsKey, data);
      setError(null);
      notifications.show({ color: 'teal', message: USER_SETTINGS_MESSAGES.updated });
    },
    onError: (err) => setError(errorMessage(err, USER_SETTINGS_MESSAGES.updateFailed)),
  });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="time-zone-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="time-zone-title">
          Time zone
        </Title>
        <Text size="sm" c="dimmed">
          Reports read days, weekdays and hours of entry in this zone, and the dashboard counts today&apos;s
          P/L from its midnight. With none saved, your browser&apos;s zone is used.
        </Text>
        {settings.isPending && <Loader size="sm" aria-label="Loading your settings" />}
        {settings.isError && (
          <Alert color="red" variant="light" role="alert" title={USER_SETTINGS_MESSAGES.fetchFailed}>
            <Text size="sm">{errorMessage(settings.error, USER_SETTINGS_MESSAGES.fetchFailed)}</Text>
            <Button size="xs" mt="xs" variant="light" onClick={() => void settings.refetch()}>
              Retry
            </Button>
          </Alert>
        )}
        {settings.data && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (value) save.mutate({ time_zone: value });
            }}
          >
            <Stack gap="sm">
              <Select
                label="Time zone"
                data={options}
                value={value}
                onChange={(v) => {
                  setValue(v);
                  setError(null);
                }}
                searchable
                nothingFoundMessage="No time zone matches"
                maxDropdownHeight={280}
                allowDeselect={false}
                maw={360}
              />
              {error && (
                <Alert color="red" variant="light" role="alert">
                  {error}
                </Alert>
              )}
              <Group gap="sm">
                <Button type="submit" loading={save.isPending} disabled={!value || value === saved}>
                  Save
                </Button>
                {saved && (
                  <Button
                    variant="default"
                    disabled={save.isPending}
                    onClick={() => save.mutate({ time_zone: null })}
                  >
                    Use the browser&apos;s zone
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
