import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressBar } from './progress-bar.ts';

function sink(isTTY: boolean): { isTTY: boolean; columns: number; text: string; write(s: string): void } {
  return { isTTY, columns: 120, text: '', write(s: string) { this.text += s; } };
}

describe('ProgressBar', () => {
  it('without a TTY prints plain lines: each phase and each 10 % step, then the final line', () => {
    let t = 0;
    const out = sink(false);
    const bar = new ProgressBar(1000, out, () => t);
    bar.setPhase('sample.customers');
    for (let i = 0; i < 10; i++) {
      t += 1000;
      bar.add(100);
    }
    bar.finish('done in 10s');
    const lines = out.text.trimEnd().split('\n');
    expect(lines[0]).toBe('  0% 0/1,000 rows  0 rows/s  ETA ?  sample.customers');
    expect(lines[1]).toBe(' 10% 100/1,000 rows  100 rows/s  ETA 9.0s  sample.customers');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('100% 1,000/1,000 rows  100 rows/s  in 10s  done in 10s');
    expect(out.text).not.toContain('\r');
  });

  it('on a TTY redraws one line with a bar (throttled), ending with a newline', () => {
    let t = 0;
    const out = sink(true);
    const bar = new ProgressBar(200, out, () => t);
    bar.setPhase('orders');
    bar.add(50); // within 100 ms of the last draw: not drawn
    t = 500;
    bar.add(50);
    expect(out.text.split('\r')).toHaveLength(3);
    expect(out.text).toContain('[##############..............]  50% 100/200 rows  200 rows/s  ETA 0.5s  orders');
    bar.finish();
    expect(out.text.endsWith('\n')).toBe(true);
  });

  it('formatDuration', () => {
    expect(formatDuration(3.14)).toBe('3.1s');
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(Infinity)).toBe('?');
  });
});
