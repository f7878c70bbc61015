/**
 * A small file beside the LMDB files that holds the newest change sequence a writer announced.
 * Every writer of the folder (the server, the `keygate` CLI) writes it inside the transaction that
 * notes the change (changes.ts), before the commit; a server reads it every few milliseconds with
 * one positioned read and opens LMDB's change log only when it moved.
 *
 * Why not just read the sequence from LMDB: lmdb ends its read transaction after every turn, so
 * each of those checks began a new one, through a path that runs too rarely to be optimized; in a
 * busy server that read took about twice the event loop's time of this file's.
 *
 * The value only ever grows (LMDB runs one write transaction at a time), so a server that read it
 * before a commit became visible reads the log again until it shows that sequence. A value that
 * cannot be read (a torn or failed read) counts as a change: the log is read, nothing is missed.
 */
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const CHANGE_SIGNAL_FILE = 'change-signal';

export class ChangeSignal {
  private readonly readBuffer = Buffer.alloc(8);
  private readonly writeBuffer = Buffer.alloc(8);
  private fd: number;

  private constructor(fd: number) {
    this.fd = fd;
  }

  static open(dataDir: string): ChangeSignal {
    return new ChangeSignal(openSync(join(dataDir, CHANGE_SIGNAL_FILE), constants.O_RDWR | constants.O_CREAT, 0o600));
  }

  /** Inside the write transaction that notes change `sequence`. */
  announce(sequence: number): void {
    this.writeBuffer.writeDoubleLE(sequence, 0);
    try {
      writeSync(this.fd, this.writeBuffer, 0, 8, 0);
    } catch {
      // The change itself must not fail for its signal: servers still read the log every
      // FULL_READ_EVERY_MS (changes.ts), so it reaches them later, never not at all.
    }
  }

  /**
   * The newest sequence announced: 0 before any (an empty file), NaN when it could not be read
   * whole (read the log then).
   */
  announced(): number {
    let read: number;
    try {
      read = readSync(this.fd, this.readBuffer, 0, 8, 0);
    } catch {
      return Number.NaN;
    }
    if (read === 0) return 0;
    return read === 8 ? this.readBuffer.readDoubleLE(0) : Number.NaN;
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}
