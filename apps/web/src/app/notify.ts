import type { NotificationData } from '@mantine/notifications';

/**
 * Toasts without loading the notifications package with the page: the package (its container is
 * mounted lazily in main.tsx) is fetched on the first toast and the toast is shown when it arrives.
 */
export const notifications = {
  show(data: NotificationData): void {
    void import('@mantine/notifications').then((m) => m.notifications.show(data));
  },
};
