// The tables the projections own, asked of the Projector itself so a new projection is verified
// and replayed without touching this folder.
import { Projector } from '../projections/projector';
import type { DatabaseHandle } from '../store/database';

export function projectionTables(handle: DatabaseHandle): string[] {
  return new Projector(handle).tables;
}
