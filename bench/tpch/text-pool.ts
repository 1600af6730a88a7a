/**
 * The comment text of TPC-H (spec 4.2.2.10): dbgen builds one long pseudo-English text from a small grammar,
 * then every comment is a substring of it at a random offset with a random length in the column's range.
 * We do the same with a smaller pool (1 MiB instead of 300 MB), generated from its own seeded stream.
 */
import { mulberry32 } from '../../src/common/prng.ts';
import { ADJECTIVES, ADVERBS, AUXILIARIES, NOUNS, PREPOSITIONS, TERMINATORS, VERBS } from './distributions.ts';

const POOL_SIZE = 1 << 20;

export class TextPool {
  readonly text: string;

  constructor(seed = 0x7e47) {
    const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const nounPhrase = (): string => {
      switch (Math.floor(rnd() * 4)) {
        case 0: return pick(NOUNS);
        case 1: return `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
        case 2: return `${pick(ADJECTIVES)}, ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
        default: return `${pick(ADVERBS)} ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
      }
    };
    const verbPhrase = (): string => {
      switch (Math.floor(rnd() * 4)) {
        case 0: return pick(VERBS);
        case 1: return `${pick(AUXILIARIES)} ${pick(VERBS)}`;
        case 2: return `${pick(VERBS)} ${pick(ADVERBS)}`;
        default: return `${pick(AUXILIARIES)} ${pick(VERBS)} ${pick(ADVERBS)}`;
      }
    };
    const prepPhrase = (): string => `${pick(PREPOSITIONS)} the ${nounPhrase()}`;
    const sentence = (): string => {
      switch (Math.floor(rnd() * 5)) {
        case 0: return `${nounPhrase()} ${verbPhrase()}${pick(TERMINATORS)}`;
        case 1: return `${nounPhrase()} ${verbPhrase()} ${prepPhrase()}${pick(TERMINATORS)}`;
        case 2: return `${nounPhrase()} ${verbPhrase()} ${nounPhrase()}${pick(TERMINATORS)}`;
        case 3: return `${nounPhrase()} ${prepPhrase()} ${verbPhrase()} ${nounPhrase()}${pick(TERMINATORS)}`;
        default: return `${nounPhrase()} ${prepPhrase()} ${verbPhrase()} ${prepPhrase()}${pick(TERMINATORS)}`;
      }
    };
    const parts: string[] = [];
    let len = 0;
    while (len < POOL_SIZE + 256) {
      const s = sentence();
      parts.push(s);
      len += s.length + 1;
    }
    this.text = parts.join(' ');
  }

  /** a comment of min..max characters (dbgen's avg length is (min+max)/2), from the caller's stream */
  comment(rnd: () => number, min: number, max: number): string {
    const len = min + Math.floor(rnd() * (max - min + 1));
    const at = Math.floor(rnd() * (POOL_SIZE - len));
    return this.text.slice(at, at + len);
  }
}

let shared: TextPool | null = null;

/** the pool every table draws from (built once per process, ~20 ms) */
export function textPool(): TextPool {
  shared ??= new TextPool();
  return shared;
}
