/**
 * Which producer fills which system relation ('schema.name' → RowProducer). Relations not listed here exist
 * with PostgreSQL's columns and return no rows (pg_enum, pg_trigger, pg_policy, pg_inherits, pg_depend, …).
 */
import type { RowProducer } from '../system-table.ts';
import {
  checkConstraintsRows, constraintColumnUsageRows, keyColumnUsageRows, referentialConstraintsRows, tableConstraintsRows,
} from './information-schema-constraints.ts';
import { columnDomainUsageRows, domainConstraintsRows, domainsRows, domainUdtUsageRows } from './information-schema-domains.ts';
import { elementTypesRows, parametersRows, routinesRows } from './information-schema-routines.ts';
import {
  catalogNameRows, characterSetsRows, columnsRows, enabledRolesRows, schemataRows, tableGrantsRows, tablesRows, viewsRows,
} from './information-schema-tables.ts';
import { pgAttributeRows } from './pg-attribute.ts';
import { pgClassRows } from './pg-class.ts';
import { pgAttrdefRows, pgConstraintRows, pgIndexRows, pgRewriteRows } from './pg-constraint.ts';
import { pgAuthidRows, pgDatabaseRows, pgRolesRows, pgUserRows } from './pg-database.ts';
import { pgDependRows } from './pg-depend.ts';
import { informationSchemaSequencesRows, pgSequenceRows, pgSequencesRows } from './pg-sequence.ts';
import { pgDescriptionRows, pgShdescriptionRows } from './pg-description.ts';
import { pgNamespaceRows } from './pg-namespace.ts';
import { pgCastRows, pgOperatorRows } from './pg-operator.ts';
import { pgAggregateRows, pgProcRows } from './pg-proc.ts';
import { pgCursorsRows, pgPreparedStatementsRows, pgSettingsRows, pgStatActivityRows } from './pg-settings.ts';
import { pgTimezoneNamesRows } from './pg-timezone-names.ts';
import { pgTypeRows } from './pg-type.ts';
import { pgConversionRows, pgTsConfigMapRows, pgTsConfigRows, pgTsDictRows, pgTsParserRows, pgTsTemplateRows } from './text-search-catalogs.ts';
import {
  pgIndexesRows, pgMatviewsRows, pgStatioUserTablesRows, pgStatUserTablesRows, pgTablesRows, pgViewsRows,
} from './pg-views.ts';
import {
  pgAmRows, pgAvailableExtensionsRows, pgCollationRows, pgExtensionRows, pgLanguageRows, pgOpclassRows, pgOpfamilyRows, pgRangeRows,
  pgTablespaceRows,
} from './static-catalogs.ts';

export const SYSTEM_ROW_PRODUCERS: Readonly<Record<string, RowProducer>> = {
  'pg_catalog.pg_namespace': pgNamespaceRows,
  'pg_catalog.pg_class': pgClassRows,
  'pg_catalog.pg_attribute': pgAttributeRows,
  'pg_catalog.pg_type': pgTypeRows,
  'pg_catalog.pg_proc': pgProcRows,
  'pg_catalog.pg_aggregate': pgAggregateRows,
  'pg_catalog.pg_operator': pgOperatorRows,
  'pg_catalog.pg_cast': pgCastRows,
  'pg_catalog.pg_range': pgRangeRows,
  'pg_catalog.pg_database': pgDatabaseRows,
  'pg_catalog.pg_authid': pgAuthidRows,
  'pg_catalog.pg_roles': pgRolesRows,
  'pg_catalog.pg_user': pgUserRows,
  'pg_catalog.pg_settings': pgSettingsRows,
  'pg_catalog.pg_stat_activity': pgStatActivityRows,
  'pg_catalog.pg_cursors': pgCursorsRows,
  'pg_catalog.pg_prepared_statements': pgPreparedStatementsRows,
  'pg_catalog.pg_index': pgIndexRows,
  'pg_catalog.pg_constraint': pgConstraintRows,
  'pg_catalog.pg_attrdef': pgAttrdefRows,
  'pg_catalog.pg_rewrite': pgRewriteRows,
  'pg_catalog.pg_depend': pgDependRows,
  'pg_catalog.pg_sequence': pgSequenceRows,
  'pg_catalog.pg_sequences': pgSequencesRows,
  'information_schema.sequences': informationSchemaSequencesRows,
  'pg_catalog.pg_description': pgDescriptionRows,
  'pg_catalog.pg_shdescription': pgShdescriptionRows,
  'pg_catalog.pg_am': pgAmRows,
  'pg_catalog.pg_tablespace': pgTablespaceRows,
  'pg_catalog.pg_collation': pgCollationRows,
  'pg_catalog.pg_language': pgLanguageRows,
  'pg_catalog.pg_extension': pgExtensionRows,
  'pg_catalog.pg_available_extensions': pgAvailableExtensionsRows,
  'pg_catalog.pg_opclass': pgOpclassRows,
  'pg_catalog.pg_opfamily': pgOpfamilyRows,
  'pg_catalog.pg_ts_parser': pgTsParserRows,
  'pg_catalog.pg_ts_template': pgTsTemplateRows,
  'pg_catalog.pg_ts_dict': pgTsDictRows,
  'pg_catalog.pg_ts_config': pgTsConfigRows,
  'pg_catalog.pg_ts_config_map': pgTsConfigMapRows,
  'pg_catalog.pg_conversion': pgConversionRows,
  'pg_catalog.pg_tables': pgTablesRows,
  'pg_catalog.pg_views': pgViewsRows,
  'pg_catalog.pg_matviews': pgMatviewsRows,
  'pg_catalog.pg_indexes': pgIndexesRows,
  'pg_catalog.pg_stat_user_tables': pgStatUserTablesRows,
  'pg_catalog.pg_stat_all_tables': pgStatUserTablesRows,
  'pg_catalog.pg_statio_user_tables': pgStatioUserTablesRows,
  'pg_catalog.pg_timezone_names': pgTimezoneNamesRows,
  'information_schema.information_schema_catalog_name': catalogNameRows,
  'information_schema.schemata': schemataRows,
  'information_schema.tables': tablesRows,
  'information_schema.views': viewsRows,
  'information_schema.columns': columnsRows,
  'information_schema.character_sets': characterSetsRows,
  'information_schema.enabled_roles': enabledRolesRows,
  'information_schema.table_constraints': tableConstraintsRows,
  'information_schema.check_constraints': checkConstraintsRows,
  'information_schema.domains': domainsRows,
  'information_schema.domain_constraints': domainConstraintsRows,
  'information_schema.column_domain_usage': columnDomainUsageRows,
  'information_schema.domain_udt_usage': domainUdtUsageRows,
  'information_schema.key_column_usage': keyColumnUsageRows,
  'information_schema.referential_constraints': referentialConstraintsRows,
  'information_schema.constraint_column_usage': constraintColumnUsageRows,
  'information_schema.routines': routinesRows,
  'information_schema.parameters': parametersRows,
  'information_schema.element_types': elementTypesRows,
  'information_schema.role_table_grants': tableGrantsRows,
  'information_schema.table_privileges': tableGrantsRows,
};
