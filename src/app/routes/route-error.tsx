import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { ErrorPanel } from '../../components/error-panel';

/** Every route's errorComponent: the page's failure in words, and Retry loads the route again. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <ErrorPanel
      title="This page could not be shown"
      error={error}
      onRetry={() => {
        reset();
        void router.invalidate();
      }}
    />
  );
}
