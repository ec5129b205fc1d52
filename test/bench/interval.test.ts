// The benchmarks' verdict on a target line (issue 43's cost line): the median's interval from order
// statistics, checked against binomial coverages worked out by hand and against a known distribution.
import { describe, expect, it } from 'vitest';

interface Interval {
  low: number;
  high: number;
  coverage: number;
}
interface BenchLib {
  medianInterval: (list: number[], confidence?: number) => Interval;
  lineVerdict: (
    list: number[],
    target: number,
    confidence?: number,
  ) => Interval & { verdict: 'meets' | 'misses' | 'cannot tell' };
}
const libUrl = new URL('./lib.mjs', import.meta.url).href;
const { medianInterval, lineVerdict } = (await import(libUrl)) as BenchLib;

const rounds = (n: number) => Array.from({ length: n }, (_, i) => n - i); // n..1, unsorted on purpose

describe('medianInterval', () => {
  it('takes the widest pair of order statistics covering 90%', () => {
    // n = 8: [x2, x7] covers 1 - 2 (1 + 8) / 256 = 0.9297; [x3, x6] would cover 1 - 2 (1 + 8 + 28) / 256 = 0.71
    expect(medianInterval(rounds(8))).toEqual({ low: 2, high: 7, coverage: 1 - (2 * 9) / 256 });
    // n = 16: [x5, x12] covers 1 - 2 (1 + 16 + 120 + 560 + 1820) / 65536 = 0.9232
    expect(medianInterval(rounds(16))).toEqual({ low: 5, high: 12, coverage: 1 - (2 * 2517) / 65536 });
    // at 95%, [x5, x12] no longer covers enough: [x4, x13], 1 - 2 (1 + 16 + 120 + 560) / 65536 = 0.9787
    expect(medianInterval(rounds(16), 0.95)).toEqual({ low: 4, high: 13, coverage: 1 - (2 * 697) / 65536 });
    // n = 48: [x18, x31] covers 0.94, [x19, x30] 0.88
    expect(medianInterval(rounds(48))).toMatchObject({ low: 18, high: 31 });
  });

  it('narrows to the middle values at most, whatever confidence is asked', () => {
    expect(medianInterval(rounds(8), 0)).toMatchObject({ low: 4, high: 5 });
    expect(medianInterval(rounds(7), 0)).toMatchObject({ low: 4, high: 4, coverage: 0 });
  });

  it('says how little the extremes cover when the rounds are too few', () => {
    expect(medianInterval(rounds(3))).toEqual({ low: 1, high: 3, coverage: 0.75 });
  });

  it('holds the median of a known distribution about as often as it claims', () => {
    // a seeded generator (mulberry32), so the check is the same on every run
    let seed = 43;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    let held = 0;
    const trials = 2000;
    for (let i = 0; i < trials; i++) {
      // uniform on [0.6, 1.0): its median is 0.8
      const { low, high } = medianInterval(Array.from({ length: 16 }, () => 0.6 + 0.4 * random()));
      if (low <= 0.8 && high >= 0.8) held++;
    }
    expect(held / trials).toBeGreaterThan(0.9);
    expect(held / trials).toBeLessThan(0.95);
  });
});

describe('lineVerdict', () => {
  it('meets, misses or cannot tell by where the interval lies', () => {
    expect(lineVerdict([0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.79], 0.8).verdict).toBe('meets');
    expect(lineVerdict([0.71, 0.72, 0.73, 0.74, 0.75, 0.76, 0.77, 0.81], 0.8).verdict).toBe('misses');
    // the 16 rounds of a shadow benchmark run on 2026-11-26: median 0.80x, interval 0.75-0.91x
    const run = [0.75, 0.75, 0.74, 0.8, 0.74, 0.8, 0.56, 0.91, 0.9, 0.94, 1.02, 0.79, 0.85, 1.03, 1.03, 0.72];
    expect(lineVerdict(run, 0.8)).toMatchObject({ verdict: 'cannot tell', low: 0.75, high: 0.91 });
  });

  it('cannot tell from rounds too few for the confidence asked', () => {
    // four rounds: even the smallest and largest hold the median with 1 - 2/16 = 0.875 only
    expect(lineVerdict([0.85, 0.9, 0.95, 1], 0.8)).toMatchObject({ verdict: 'cannot tell', coverage: 0.875 });
    expect(lineVerdict([0.6, 0.65, 0.7, 0.75], 0.8).verdict).toBe('cannot tell');
    expect(lineVerdict([0.85, 0.9, 0.95, 1, 1.05], 0.8)).toMatchObject({ verdict: 'meets', coverage: 0.9375 });
  });
});
