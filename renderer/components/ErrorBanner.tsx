/** An error said in words, with a way out: errors are never silent. */
export function ErrorBanner({
  message,
  onDismiss,
  onRetry,
  retryLabel = 'Try again',
}: {
  message: string;
  onDismiss?: () => void;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  return (
    <div className="banner banner--error" role="alert">
      <span className="banner__text">{message}</span>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {retryLabel}
        </button>
      )}
      {onDismiss && (
        <button type="button" className="button button--quiet" onClick={onDismiss} aria-label="Dismiss message">
          Dismiss
        </button>
      )}
    </div>
  );
}
