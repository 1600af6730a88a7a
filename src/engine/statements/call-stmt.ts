/**
 * CALL system.<procedure>(...): lakegate's table procedures, spelled as Trino's Iceberg connector spells
 * them. Arguments may be named (`schema_name => 'x'`) or positional.
 *   register_table(schema_name, table_name, metadata_file | table_location [, metadata_file_name])
 *   unregister_table(schema_name, table_name)
 *   drop_table(schema_name, table_name [, purge])   purge => true also deletes the table's files (DROP TABLE … PURGE,
 *                                                   which PostgreSQL's grammar cannot parse); plain DROP TABLE keeps them
 * and Spark's snapshot procedures (iceberg/metadata-tables/set-current-snapshot.ts):
 *   rollback_to_snapshot(schema_name, table_name, snapshot_id)   the snapshot must be an ancestor of the current one
 *   set_current_snapshot(schema_name, table_name, snapshot_id)   any snapshot of the table
 * and Iceberg's compaction (iceberg/maintenance/rewrite-data-files.ts):
 *   rewrite_data_files(table [, target_file_size_bytes, min_input_files])   table => 'schema.table'
 */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { findLatestMetadataFile, loadTableMetadata, setCurrentSnapshot } from '../../iceberg/index.ts';
import { rewriteDataFiles } from '../../iceberg/maintenance/rewrite-data-files.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { EngineSession } from '../engine-session.ts';
import { constText, nodeBody, nodeKind, stringList } from '../ast.ts';
import type { IcebergTables } from '../iceberg-tables.ts';

type Args = Map<string, string | null>;

interface Procedure {
  readonly params: readonly string[];
  readonly required: readonly string[];
  run(session: EngineSession, iceberg: IcebergTables, args: Args): Promise<void>;
}

const PROCEDURES: Readonly<Record<string, Procedure>> = {
  register_table: {
    params: ['schema_name', 'table_name', 'table_location', 'metadata_file_name', 'metadata_file'],
    required: ['schema_name', 'table_name'],
    async run(_session, iceberg, args) {
      const schema = args.get('schema_name')!;
      const name = args.get('table_name')!;
      let metadataFile = args.get('metadata_file') ?? null;
      const location = args.get('table_location') ?? null;
      if (metadataFile === null) {
        if (location === null) throw pgError(SqlState.invalid_parameter_value, 'register_table needs metadata_file or table_location');
        const fileName = args.get('metadata_file_name') ?? null;
        metadataFile = fileName === null ? await findLatestMetadataFile(iceberg.io, location) : `${location.replace(/\/+$/, '')}/metadata/${fileName}`;
      }
      await loadTableMetadata(iceberg.io, metadataFile); // fail here, naming the file, rather than on first read
      if (!(await iceberg.catalog.namespaceExists([schema]))) throw pgError(SqlState.invalid_schema_name, `schema "${schema}" does not exist`);
      await iceberg.catalog.registerTable({ namespace: [schema], name }, metadataFile);
    },
  },
  unregister_table: {
    params: ['schema_name', 'table_name'],
    required: ['schema_name', 'table_name'],
    async run(_session, iceberg, args) {
      const id = { namespace: [args.get('schema_name')!], name: args.get('table_name')! };
      if (!(await iceberg.catalog.dropTable(id))) throw pgError(SqlState.undefined_table, `relation "${id.namespace[0]}.${id.name}" does not exist`);
    },
  },
  drop_table: {
    params: ['schema_name', 'table_name', 'purge'],
    required: ['schema_name', 'table_name'],
    async run(_session, iceberg, args) {
      const schema = args.get('schema_name')!;
      const name = args.get('table_name')!;
      const purgeText = (args.get('purge') ?? 'false').trim().toLowerCase();
      if (!['true', 'false', 't', 'f', 'on', 'off', '1', '0', 'yes', 'no'].includes(purgeText)) {
        throw pgError(SqlState.invalid_text_representation, `invalid input syntax for type boolean: "${purgeText}"`);
      }
      const purge = ['true', 't', 'on', '1', 'yes'].includes(purgeText);
      if (!(await iceberg.dropTable(schema, name, purge))) throw pgError(SqlState.undefined_table, `relation "${schema}.${name}" does not exist`);
    },
  },
  rewrite_data_files: {
    params: ['table', 'target_file_size_bytes', 'min_input_files'],
    required: ['table'],
    async run(_session, iceberg, args) {
      const write = iceberg.writeOptions;
      if (write === undefined) throw notSupported('rewrite_data_files on read-only Iceberg tables');
      const [schema, name, ...rest] = splitTableName(args.get('table')!);
      if (schema === undefined || name === undefined || rest.length > 0) {
        throw pgError(SqlState.invalid_parameter_value, `rewrite_data_files: table must be 'schema.table', not "${args.get('table')!}"`);
      }
      const id = { namespace: [schema], name };
      if (!(await iceberg.catalog.tableExists(id))) throw pgError(SqlState.undefined_table, `relation "${schema}.${name}" does not exist`);
      const target = positiveInt(args, 'target_file_size_bytes') ?? write.targetFileSizeBytes;
      const minInputFiles = positiveInt(args, 'min_input_files');
      await rewriteDataFiles({
        catalog: iceberg.catalog, io: write.io, id,
        ...(target === undefined ? {} : { targetFileSizeBytes: target }),
        ...(minInputFiles === undefined ? {} : { minInputFiles }),
      });
    },
  },
  rollback_to_snapshot: snapshotProcedure(true),
  set_current_snapshot: snapshotProcedure(false),
};

/** `schema.table`, `"Mixed Case".t`: dot-separated, double quotes keep dots and case */
function splitTableName(text: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^."\s]+))\s*(\.|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) return [];
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.toLowerCase());
    at = re.lastIndex;
    if (m[3] === '') break;
  }
  return out;
}

function positiveInt(args: Args, key: string): number | undefined {
  const v = args.get(key);
  if (v === undefined || v === null) return undefined;
  if (!/^\s*\d+\s*$/.test(v) || Number(v) <= 0) throw pgError(SqlState.invalid_parameter_value, `${key} must be a positive integer, not "${v}"`);
  return Number(v);
}

function snapshotProcedure(requireAncestor: boolean): Procedure {
  return {
    params: ['schema_name', 'table_name', 'snapshot_id'],
    required: ['schema_name', 'table_name', 'snapshot_id'],
    async run(_session, iceberg, args) {
      const text = args.get('snapshot_id')!.trim();
      if (!/^-?\d+$/.test(text)) throw pgError(SqlState.invalid_text_representation, `invalid input syntax for type bigint: "${text}"`);
      const table = { namespace: [args.get('schema_name')!], name: args.get('table_name')! };
      await setCurrentSnapshot({ io: iceberg.io, catalog: iceberg.catalog, table, snapshotId: BigInt(text), requireAncestor });
    },
  };
}

export const runCall: UtilityHandler = async (session, stmt) => {
  const call = nodeBody({ FuncCall: nodeBody(stmt.ast).funccall });
  const names = stringList(call.funcname);
  const procName = names[names.length - 1] ?? '';
  const schema = names.length > 1 ? names[names.length - 2] : 'system';
  const proc = schema === 'system' ? PROCEDURES[procName] : undefined;
  if (proc === undefined) throw pgError(SqlState.undefined_function, `procedure ${names.join('.')} does not exist`, { hint: `lakegate's procedures: ${Object.keys(PROCEDURES).map((p) => `system.${p}`).join(', ')}.` });
  const iceberg = session.iceberg;
  if (iceberg === undefined) throw notSupported(`CALL system.${procName} without a warehouse`);
  const args = bindArgs(procName, proc, Array.isArray(call.args) ? call.args : []);
  await proc.run(session, iceberg, args);
  await iceberg.refresh(true);
  return { kind: 'command', tag: 'CALL' };
};

function bindArgs(procName: string, proc: Procedure, raw: unknown[]): Args {
  const args: Args = new Map();
  raw.forEach((a, i) => {
    if (nodeKind(a) === 'NamedArgExpr') {
      const named = nodeBody(a);
      const key = String(named.name ?? '').toLowerCase();
      if (!proc.params.includes(key)) throw pgError(SqlState.undefined_parameter, `procedure system.${procName} has no parameter "${key}"`);
      args.set(key, constText(named.arg));
    } else {
      const key = proc.params[i];
      if (key === undefined) throw pgError(SqlState.syntax_error, `too many arguments for procedure system.${procName}`);
      args.set(key, constText(a));
    }
  });
  for (const r of proc.required) {
    if (args.get(r) === undefined || args.get(r) === null) throw pgError(SqlState.null_value_not_allowed, `procedure system.${procName}: ${r} must not be null`);
  }
  return args;
}
