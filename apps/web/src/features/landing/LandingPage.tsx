import {
  Anchor,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconBook, IconCalculator, IconRobot, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PRODUCT_TITLE } from '../../app/product';
import { ThemeToggle } from '../../app/ThemeToggle';
import { NewsAnalyzer } from './NewsAnalyzer';

const FEATURES = [
  {
    icon: IconShieldCheck,
    title: 'Risk-first trade manager',
    text: 'Lot size from your risk, stop and take-profit plans, and rules the server enforces before any order leaves.',
  },
  {
    icon: IconBook,
    title: 'A journal for every trade',
    text: 'Journal each trade as you place it, with screenshots and automated chart snapshots.',
  },
  {
    icon: IconCalculator,
    title: 'Know the win rate you need',
    text: 'Work out the minimum win rate your plan needs before you risk a cent.',
  },
  {
    icon: IconRobot,
    title: 'Bots and backtests',
    text: 'Write trading bots in Python, backtest them on history and run them live.',
  },
];

export function LandingPage() {
  return (
    <Container component="main" size="lg" py="xl">
      <Stack gap="xl">
        <Group justify="space-between">
          <Title order={2}>{PRODUCT_TITLE}</Title>
          <Button component={Link} to="/login">
            Login
          </Button>
        </Group>
        <Stack gap="xs" maw={720}>
          <Title order={1}>The AI-powered trade manager that keeps your journal for you</Title>
          <Text size="lg" c="dimmed">
            Size trades from risk, manage positions on MT5, cTrader or the built-in simulator, and journal
            every trade in one place. Works fully offline.
          </Text>
        </Stack>
        <NewsAnalyzer />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {FEATURES.map((f) => (
            <Card key={f.title} withBorder padding="lg">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <ThemeIcon variant="light" size="lg">
                  <f.icon size={20} />
                </ThemeIcon>
                <Stack gap={4}>
                  <Text fw={600}>{f.title}</Text>
                  <Text size="sm" c="dimmed">
                    {f.text}
                  </Text>
                </Stack>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
        <Card withBorder padding="lg">
          <Text fw={600} mb={4}>
            A note from the founders
          </Text>
          <Text size="sm" c="dimmed">
            We traded with a position-size calculator in one window and a journal in another, and lost the
            link between the plan and the result. {PRODUCT_TITLE} keeps them together: the trade you plan is
            the trade you journal.
          </Text>
        </Card>
        <Group justify="space-between" component="footer" py="md">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {PRODUCT_TITLE}, open source.
          </Text>
          <Anchor href="mailto:hello@tradedesk.invalid" size="sm">
            Contact us
          </Anchor>
        </Group>
      </Stack>
      <ThemeToggle />
    </Container>
  );
}
