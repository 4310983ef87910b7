/**
 * The types the world campaign's later families share (test/world/families.ts): what a family's play and check see of
 * a run, and how a check is counted. Types only, so that the family files and the registry import no value of each
 * other.
 */
import type { TrackedIntent } from '@/lib/store';
import type { FakeService, LogEntry } from '../tracker/fake-service';
import type { DeathExcuses } from './death-excuses';
import type { WorldTime } from './time';
import type { World } from './world';

/** The invariants the families' oracles check (docs/simulation.md). */
export type ExtraInvariant = 'T1' | 'C1' | 'B1' | 'S1' | 'W1' | 'V1' | 'F1' | 'H1' | 'L1';

/** A window the oracle may excuse (test/world/run.ts `Excuse`). */
export interface Window {
  from: number;
  to: number;
  why: string;
  intentId?: string;
}

/** A change of one answer of the configured service (test/world/network.ts `patch`). */
export type Patch = (op: LogEntry['op'], intentId: string | undefined, result: unknown) => void;

/** What a family's play and check see of the run. */
export interface FamilyContext {
  T0: number;
  world: World;
  time: WorldTime;
  service: FakeService;
  /** The schedule's intents' ids. */
  ids: string[];
  /** When each intent's answered track was sent (`from`), its answer came (`answeredAt`), and it was removed. */
  tracked: Map<string, { from: number; answeredAt?: number; removedAt?: number }>;
  removeAsked: Set<string>;
  /** Runs `fn` at world time `t` (ms since the world's start). */
  at(t: number, fn: () => void): void;
  /** True time (ms since the epoch). */
  now(): number;
  /** Draws of the families (seeded). */
  random(): number;
  patches: Patch[];
}

/** Counts a check of an extra invariant, or its excuse. */
export interface FamilyCount {
  ok(i: ExtraInvariant): void;
  excused(i: ExtraInvariant, why: string): void;
}

/** What the families' oracles read beyond {@link FamilyContext}. */
export interface CheckContext extends Omit<FamilyContext, 'at' | 'patches' | 'random'>, DeathExcuses {
  end: number;
  finalList: TrackedIntent[];
  /** The worker's deaths (true time; `restartAt`: when the next worker started). */
  deaths: Array<{ at: number; kind: string; restartAt?: number; skew?: number; restartSkew?: number }>;
  /** Per intent: when each phase was first written (true time). */
  phaseAt: Map<string, Map<string, number>>;
  desktop: World['profile']['desktop'];
  kind: 'chrome' | 'firefox';
  /** Per intent: when it was told on its own (test/notify/desktop-oracle.ts `tellings`). */
  toldAt: Map<string, number[]>;
  /** Deaths and IndexedDB refusals in the run. */
  deathsOrRefusals: number;
  /** The oracle's windows about `id` (undefined: every intent) overlapping [from, to]. */
  over(id: string | undefined, from: number, to: number): Window[];
}
