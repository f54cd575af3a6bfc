import { z } from 'zod';
import { useEffect } from 'react';
import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  NavLink as MantineNavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChartLine,
  IconCalculator,
  IconHistory,
  IconLayoutDashboard,
  IconListDetails,
  IconLogout,
  IconReport,
  IconRobot,
  IconSettings,
  IconCamera,
  IconUsers,
} from '@tabler/icons-react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { api, setUnauthorizedHandler } from './api';
import { session } from './session';
import { useSessionToken } from './useSession';
import { ThemeToggle } from './ThemeToggle';
import { PRODUCT_TITLE } from './product';
import { WatchlistModal } from '../features/watchlist/WatchlistModal';
import { useWatchlist } from '../features/watchlist/watchlist.api';

const LINKS = [
  { to: '/dashboard', label: 'Dashboard', icon: IconLayoutDashboard },
  { to: '/accounts', label: 'Manage Accounts', icon: IconUsers },
  {
    to: '/settings',
    label: 'Settings',
    icon: IconSettings,
    children: [{ to: '/settings/chart-snapshot-configs', label: 'Chart Snapshot Configs', icon: IconCamera }],
  },
  { to: '/reports', label: 'Reports', icon: IconReport },
  { to: '/analysis', label: 'Analysis', icon: IconChartLine },
  { to: '/win-rate', label: 'Win-Rate Calculator', icon: IconCalculator },
  { to: '/select-account-for-history', label: 'Trade History', icon: IconHistory },
  { to: '/bots', label: 'Trading Bots', icon: IconRobot },
];

function SideNav({ onOpenWatchlist, onNavigate }: { onOpenWatchlist: () => void; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const logout = () => {
    // The server revokes the refresh token (and its rotations); the page does not wait for it.
    const refresh = session.refreshToken();
    if (refresh) void api.post('/token/logout/', { refresh }, { schema: z.unknown() }).catch(() => undefined);
    session.clear();
    qc.clear();
    navigate('/login');
  };
  return (
    // On a phone the navbar is full width: room at its foot keeps Logout clear of the floating theme button.
    <Stack h="100%" gap="xs" justify="space-between" pb={{ base: 64, sm: 0 }}>
      <ScrollArea type="never">
        <nav aria-label="Main">
          {LINKS.map((l) => (
            <div key={l.to}>
              <MantineNavLink
                component={NavLink}
                to={l.to}
                end
                label={l.label}
                leftSection={<l.icon size={18} stroke={1.6} />}
                active={pathname === l.to}
                onClick={onNavigate}
              />
              {l.children?.map((c) => (
                <MantineNavLink
                  key={c.to}
                  component={NavLink}
                  to={c.to}
                  label={c.label}
                  pl="xl"
                  leftSection={<c.icon size={16} stroke={1.6} />}
                  active={pathname === c.to}
                  onClick={onNavigate}
                />
              ))}
            </div>
          ))}
        </nav>
      </ScrollArea>
      <Stack gap="xs">
        <Button variant="light" leftSection={<IconListDetails size={18} />} onClick={onOpenWatchlist}>
          Manage Watchlist
        </Button>
        <Button variant="subtle" color="red" leftSection={<IconLogout size={18} />} onClick={logout}>
          Logout
        </Button>
      </Stack>
    </Stack>
  );
}

/** The further panel beside every screen: the instruments the trader is watching. */
function WatchlistPanel({ onManage }: { onManage: () => void }) {
  const { items, isLoading } = useWatchlist();
  return (
    <Stack gap="xs" aria-label="Watchlist panel">
      <Group justify="space-between">
        <Text fw={600}>Watchlist</Text>
        <Button size="compact-xs" variant="subtle" onClick={onManage}>
          Edit
        </Button>
      </Group>
      {isLoading ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing watched yet.
        </Text>
      ) : (
        items.map((i) => (
          <Group key={i.id} justify="space-between" gap={4} wrap="nowrap">
            <Text size="sm" fw={500}>
              {i.instrument}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text size="xs" c="dimmed">
                {i.exchange}
              </Text>
              {i.is_global && (
                <Badge size="xs" variant="light" color="grape">
                  (Global)
                </Badge>
              )}
            </Group>
          </Group>
        ))
      )}
    </Stack>
  );
}

/** Side navigation, watchlist modal and panel around every signed-in screen. */
export function AppLayout() {
  const token = useSessionToken();
  const navigate = useNavigate();
  const [navOpened, nav] = useDisclosure(false);
  const [watchlistOpened, watchlist] = useDisclosure(false);

  useEffect(() => {
    setUnauthorizedHandler(() => navigate('/login', { replace: true }));
  }, [navigate]);

  if (!token) return <Navigate to="/login" replace />;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      aside={{ width: 220, breakpoint: 'lg', collapsed: { mobile: true } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm">
          <Burger
            opened={navOpened}
            onClick={nav.toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label="Toggle navigation"
          />
          <Title order={3} component="p">
            {PRODUCT_TITLE}
          </Title>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <SideNav onOpenWatchlist={watchlist.open} onNavigate={nav.close} />
      </AppShell.Navbar>
      <AppShell.Aside p="sm">
        <WatchlistPanel onManage={watchlist.open} />
      </AppShell.Aside>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <WatchlistModal opened={watchlistOpened} onClose={watchlist.close} />
      <ThemeToggle />
    </AppShell>
  );
}
