/**
 * PostgreSQL dialect whose catalog reads stay in the connection's own schema. Kysely's introspector
 * (which the migrator uses to find its migration tables) reads the tables of every schema and checks
 * `has_schema_privilege` on each name; when another client drops a schema during that read, PostgreSQL
 * fails it with "schema … does not exist" and the server could not start. Apps and test runs that share
 * one database, each in its own schema, do exactly that.
 */
import {
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type TableMetadata,
} from 'kysely';

const INTERNAL_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  table: string;
  schema: string;
  kind: string;
  column: string | null;
  type: string | null;
  type_schema: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
  auto_incrementing: string | null;
}

class CurrentSchemaIntrospector extends PostgresIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection is schema-agnostic
  constructor(private readonly kdb: Kysely<any>) {
    super(kdb);
  }

  override async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", ns.nspname as "schema", c.relkind as "kind",
             a.attname as "column", typ.typname as "type", dtns.nspname as "type_schema",
             a.attnotnull as "not_null", a.atthasdef as "has_default",
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname)
               as "auto_incrementing"
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type typ on typ.oid = a.atttypid
      left join pg_catalog.pg_namespace dtns on dtns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname, a.attnum`.execute(this.kdb);
    const tables = new Map<string, TableMetadata>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && INTERNAL_TABLES.has(r.table)) continue;
      let t = tables.get(r.table);
      if (!t) {
        t = {
          name: r.table,
          schema: r.schema,
          isView: r.kind === 'v',
          isForeign: r.kind === 'f',
          columns: [],
        };
        tables.set(r.table, t);
      }
      if (r.column !== null)
        t.columns.push({
          name: r.column,
          dataType: r.type ?? '',
          dataTypeSchema: r.type_schema ?? undefined,
          isNullable: !r.not_null,
          hasDefaultValue: !!r.has_default,
          isAutoIncrementing: r.auto_incrementing !== null,
        });
    }
    return [...tables.values()];
  }
}

export class SchemaScopedPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection is schema-agnostic
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
