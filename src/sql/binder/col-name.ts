/**
 * Result column names as PostgreSQL picks them (FigureColname in parse_target.c): the column, function or
 * type name an expression is built from, `?column?` when there is none.
 */
type Node = Record<string, unknown>;

/** returns [name, strength]: 2 = a real name, 1 = a fallback like "case", 0 = none */
function figure(node: unknown): [string, number] {
  if (node === null || typeof node !== 'object') return ['?column?', 0];
  const [tag, body] = Object.entries(node as Node)[0] ?? ['', {}];
  const n = body as Node;
  switch (tag) {
    case 'ColumnRef': {
      const fields = n.fields as Node[];
      const last = fields[fields.length - 1] as Node | undefined;
      const s = (last?.String as Node | undefined)?.sval;
      return typeof s === 'string' ? [s, 2] : ['?column?', 0];
    }
    case 'A_Indirection': {
      const ind = n.indirection as Node[];
      const last = ind[ind.length - 1] as Node | undefined;
      const s = (last?.String as Node | undefined)?.sval;
      if (typeof s === 'string') return [s, 2];
      return figure(n.arg);
    }
    case 'FuncCall': {
      const names = n.funcname as Node[];
      return [String(((names[names.length - 1] as Node).String as Node).sval), 2];
    }
    case 'A_Expr':
      if (n.kind === 'AEXPR_NULLIF') return ['nullif', 2];
      return ['?column?', 0];
    case 'TypeCast': {
      const inner = figure(n.arg);
      if (inner[1] > 1) return inner; // FigureColnameInternal: a weak (cast) name gives way to the outer cast's
      const tn = n.typeName as Node;
      const names = tn.names as Node[];
      const last = String(((names[names.length - 1] as Node).String as Node).sval);
      return [last, 1];
    }
    case 'CollateClause': return figure(n.arg);
    case 'GroupingFunc': return ['grouping', 2];
    case 'SubLink':
      switch (n.subLinkType) {
        case 'EXISTS_SUBLINK': return ['exists', 2];
        case 'ARRAY_SUBLINK': return ['array', 2];
        case 'EXPR_SUBLINK': {
          const sel = (n.subselect as Node).SelectStmt as Node | undefined;
          const first = (sel?.targetList as Node[] | undefined)?.[0] as Node | undefined;
          const rt = first?.ResTarget as Node | undefined;
          if (rt?.name) return [String(rt.name), 2];
          return rt ? figure(rt.val) : ['?column?', 0];
        }
        default: return ['?column?', 0];
      }
    case 'CaseExpr': {
      const d = figure(n.defresult);
      return d[1] > 1 ? d : ['case', 1];
    }
    case 'A_ArrayExpr': return ['array', 2];
    case 'RowExpr': return ['row', 2];
    case 'CoalesceExpr': return ['coalesce', 2];
    case 'MinMaxExpr': return [n.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
    case 'SQLValueFunction': return [svfName(String(n.op)), 2];
    case 'XmlExpr': return ['xmlelement', 2];
    default: return ['?column?', 0];
  }
}

function svfName(op: string): string {
  const m: Record<string, string> = {
    SVFOP_CURRENT_DATE: 'current_date', SVFOP_CURRENT_TIME: 'current_time', SVFOP_CURRENT_TIME_N: 'current_time',
    SVFOP_CURRENT_TIMESTAMP: 'current_timestamp', SVFOP_CURRENT_TIMESTAMP_N: 'current_timestamp',
    SVFOP_LOCALTIME: 'localtime', SVFOP_LOCALTIME_N: 'localtime', SVFOP_LOCALTIMESTAMP: 'localtimestamp',
    SVFOP_LOCALTIMESTAMP_N: 'localtimestamp', SVFOP_CURRENT_ROLE: 'current_role', SVFOP_CURRENT_USER: 'current_user',
    SVFOP_USER: 'current_user', SVFOP_SESSION_USER: 'session_user', SVFOP_CURRENT_CATALOG: 'current_catalog',
    SVFOP_CURRENT_SCHEMA: 'current_schema',
  };
  return m[op] ?? '?column?';
}

export function figureColname(node: unknown): string {
  return figure(node)[0];
}
