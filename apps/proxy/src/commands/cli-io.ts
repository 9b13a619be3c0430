/** Where a subcommand writes (the process's streams, or a test's). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}
