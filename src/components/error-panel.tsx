import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';

/** A failure in words, where it happened, with Retry: what a route or a panel shows instead of its content. */
export function ErrorPanel({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert tone="error" title={title} action={<Button variant="secondary" onClick={onRetry}>Retry</Button>}>
      {message || 'Something went wrong.'}
    </Alert>
  );
}

/**
 * A local error boundary: a render error inside it replaces only this panel with an ErrorPanel,
 * and Retry renders the children again. The rest of the page keeps working.
 */
export class PanelErrorBoundary extends Component<{ title: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPanel title={this.props.title} error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
