/**
 * UUID generation: gen_random_uuid() (core since PostgreSQL 13) and uuid-ossp's uuid_generate_v4(),
 * both RFC 4122 version 4 from the CSPRNG. uuid values are canonical lower-case strings (values.ts).
 * @see https://www.postgresql.org/docs/15/functions-uuid.html
 */
import { randomUUID } from 'node:crypto';
import { Oid } from '../common/pgtypes/oids.ts';
import type { RoutineDef } from './registry-types.ts';

export const uuidFunctions: readonly RoutineDef[] = [
  { kind: 'scalar', name: 'gen_random_uuid', args: [], returns: Oid.uuid, oid: 3432, volatility: 'v', impl: () => randomUUID() },
  { kind: 'scalar', name: 'uuid_generate_v4', args: [], returns: Oid.uuid, volatility: 'v', impl: () => randomUUID() },
];
