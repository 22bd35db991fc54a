// The worker's in-memory index of `duplicate_text`: LSH band key → review ids, a multimap in two typed arrays with
// open addressing (linear probing). At 200,000 reviews × 16 bands it holds 3.2 million pairs in 32 MiB, where a
// JavaScript Map of arrays took several times that; a look-up is 16 probes whatever the number of reviews.

const EMPTY = 0;
const MAX_LOAD = 0.8;

export class BandTable {
  private keys: Uint32Array;
  private ids: Uint32Array;
  private mask: number;
  /** Pairs held. */
  size = 0;

  constructor(capacity = 1024) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.keys = new Uint32Array(slots);
    this.ids = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.keys.byteLength + this.ids.byteLength;
  }

  /** Adds a pair (band keys are never 0: `bands()` makes sure). The same pair twice is held twice. */
  add(key: number, id: number): void {
    if ((this.size + 1) / this.keys.length > MAX_LOAD) this.grow();
    let i = key & this.mask;
    while (this.keys[i] !== EMPTY) i = (i + 1) & this.mask;
    this.keys[i] = key;
    this.ids[i] = id;
    this.size++;
  }

  /** Calls `found` with each id held under `key`. */
  each(key: number, found: (id: number) => void): void {
    for (let i = key & this.mask; this.keys[i] !== EMPTY; i = (i + 1) & this.mask) {
      if (this.keys[i] === key) found(this.ids[i]!);
    }
  }

  /** Removes one copy of the pair, if held; the following run is shifted back so that probing still finds it. */
  remove(key: number, id: number): void {
    let i = key & this.mask;
    while (this.keys[i] !== EMPTY && !(this.keys[i] === key && this.ids[i] === id)) i = (i + 1) & this.mask;
    if (this.keys[i] === EMPTY) return;
    this.size--;
    // Backward-shift deletion (Knuth, algorithm R): move a later entry into the hole when its home slot lies
    // cyclically at or before the hole, so that no probe sequence crosses an empty slot it needs to pass.
    let hole = i;
    for (let j = (i + 1) & this.mask; this.keys[j] !== EMPTY; j = (j + 1) & this.mask) {
      const home = this.keys[j]! & this.mask;
      const between = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (between) continue;
      this.keys[hole] = this.keys[j]!;
      this.ids[hole] = this.ids[j]!;
      hole = j;
    }
    this.keys[hole] = EMPTY;
    this.ids[hole] = 0;
  }

  private grow(): void {
    const { keys, ids } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.ids = new Uint32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) this.add(keys[i]!, ids[i]!);
  }
}
