import type { KindPayload, RecordKind } from '../kinds/registry.js';
import type { MappedRecord } from './record.js';

/**
 * A mapped record of kind K: its payload is the kind's create body (the registry's KindPayload).
 * A file of its own: record.ts is read by every kind, and must not import the registry that
 * imports them.
 */
export type RecordOf<K extends RecordKind> = MappedRecord<KindPayload[K]>;
