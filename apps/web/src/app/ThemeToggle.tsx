import { Affix, Button, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Floating bottom-right button, labelled with the mode it switches to. */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={300}>
      <Button
        radius="xl"
        variant="default"
        leftSection={next === 'dark' ? <IconMoon size={16} /> : <IconSun size={16} />}
        onClick={() => setColorScheme(next)}
        aria-label={`Switch to ${next} mode`}
      >
        {next === 'dark' ? 'Dark Mode' : 'Light Mode'}
      </Button>
    </Affix>
  );
}
