/** One progress line while something runs: rewritten in place on a terminal, every 5 s otherwise. */
const TTY = process.stdout.isTTY === true;

export class Progress {
  private readonly started = Date.now();
  private lastPrinted = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly label: string, private readonly totalS: number, private readonly extra: () => string = () => '') {
    this.timer = setInterval(() => this.tick(), 1000);
    this.tick();
  }

  private tick(): void {
    const elapsed = (Date.now() - this.started) / 1000;
    const line = `  … ${this.label}  ${elapsed.toFixed(0)}/${this.totalS.toFixed(0)} s  ${this.extra()}`;
    if (TTY) process.stdout.write(`\r\x1b[2K${line}`);
    else if (Date.now() - this.lastPrinted >= 5000) { process.stdout.write(`${line}\n`); this.lastPrinted = Date.now(); }
  }

  done(summary: string): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (TTY) process.stdout.write('\r\x1b[2K');
    process.stdout.write(`  ✓ ${this.label}  ${summary}\n`);
  }
}

/** A progress line counting items done (of a total, when known): seeding, cleanup. */
export class CountProgress {
  private count = 0;
  private readonly started = Date.now();
  private lastPrinted = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly label: string, private readonly total?: number) {
    this.timer = setInterval(() => this.tick(), 1000);
    this.tick();
  }

  add(n = 1): void { this.count += n; }

  private tick(): void {
    const line = `  … ${this.label}  ${this.count}${this.total === undefined ? '' : `/${this.total}`}  ${((Date.now() - this.started) / 1000).toFixed(0)} s`;
    if (TTY) process.stdout.write(`\r\x1b[2K${line}`);
    else if (Date.now() - this.lastPrinted >= 5000) { process.stdout.write(`${line}\n`); this.lastPrinted = Date.now(); }
  }

  finish(summary: string, ok = true): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (TTY) process.stdout.write('\r\x1b[2K');
    process.stdout.write(`  ${ok ? '✓' : '✗'} ${this.label}  ${summary}\n`);
  }
}

export const log = (line: string): void => { process.stdout.write(`${line}\n`); };
