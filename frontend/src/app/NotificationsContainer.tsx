// Its own module, so that the lazy import below takes only the container: a dynamic import of the
// package itself would keep the container in the first download beside the statically imported store.
export { Notifications } from '@mantine/notifications';
