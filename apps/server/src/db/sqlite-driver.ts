import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect over Node's built-in `node:sqlite`, so that the embedded default needs no native build.
 * One connection guarded by a mutex: node:sqlite is synchronous, but a Kysely transaction spans awaits,
 * and two interleaved transactions on one connection would corrupt each other.
 */
export function nodeSqliteDialect(file: string): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new NodeSqliteDriver(file),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v;
}

/** A prepared statement and whether it returns rows, asked of SQLite once when it is prepared. */
interface Prepared {
  stmt: StatementSync;
  returnsRows: boolean;
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #cache = new Map<string, Prepared>();
  constructor(readonly db: DatabaseSync) {}

  #prepare(sql: string): Prepared {
    let prepared = this.#cache.get(sql);
    if (!prepared) {
      const stmt = this.db.prepare(sql);
      // columns() builds an array of column descriptions: once per statement, not once per query.
      prepared = { stmt, returnsRows: stmt.columns().length > 0 };
      if (this.#cache.size > 500) this.#cache.delete(this.#cache.keys().next().value as string);
      this.#cache.set(sql, prepared);
    }
    return prepared;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { stmt, returnsRows } = this.#prepare(compiled.sql);
    const params = compiled.parameters.map(bindable) as never[];
    if (returnsRows) return { rows: stmt.all(...params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(...params);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { stmt } = this.#prepare(compiled.sql);
    for (const row of stmt.iterate(...(compiled.parameters.map(bindable) as never[]))) {
      yield { rows: [row as R] };
    }
  }
}

class NodeSqliteDriver implements Driver {
  #conn: NodeSqliteConnection | undefined;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(private readonly file: string) {}

  async init(): Promise<void> {
    // SQLite gives its -wal and -shm files the database file's permissions: create that 0600 first,
    // and tighten files an older version left readable to others.
    if (this.file !== ':memory:') {
      closeSync(openSync(this.file, 'a', 0o600));
      for (const f of [this.file, `${this.file}-wal`, `${this.file}-shm`])
        if (existsSync(f)) chmodSync(f, 0o600);
    }
    const db = new DatabaseSync(this.file);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA busy_timeout = 5000');
    this.#conn = new NodeSqliteConnection(db);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
    return this.#conn!;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async destroy(): Promise<void> {
    this.#conn?.db.close();
    this.#conn = undefined;
  }
}
