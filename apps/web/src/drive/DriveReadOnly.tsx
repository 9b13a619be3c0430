/**
 * What the Drive panel shows where nothing can be driven (a capture opened read-only): the
 * server's own words, as a notice rather than an error, since nothing went wrong.
 */
export function DriveReadOnly({ message }: { message: string }) {
  return (
    <p className="drive-read-only muted" data-testid="drive-read-only">
      {message}
    </p>
  );
}
