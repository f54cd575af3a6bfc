import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * The reports' compact copy of closed trades (docs/decisions.md, "Reports read a per-account,
 * per-month copy of the closed trades"): one row per account and month of closing, the month's
 * trades packed in `data` (modules/reports/reports.facts-codec.ts) and their stored MFE/MAE in
 * `report_excursions`.
 *
 * The copy is never trusted by age: triggers on every table a report reads (trades, their
 * journals, the journals' attachments, the bot link) add 1 to the month's `version` in the same
 * transaction as the write, whatever code path writes, and a report rebuilds every month whose
 * `built_version` is behind before it reads. Months are `substr(closed_at, 1, 7)` of the stored
 * instant, the same expression in the triggers and in the reads.
 *
 * `candle_chunks.version` counts the writes of each candle month, so a stored MFE/MAE names the
 * candles it was measured on.
 */

/** Columns of trades a report reads: an UPDATE that sets none of them leaves the copy as it is. */
const TRADE_COLUMNS = [
  'user_id',
  'account_id',
  'status',
  'symbol',
  'direction',
  'created_at',
  'opened_at',
  'closed_at',
  'actual_pl_minor',
  'initial_risk_minor',
  'trader',
  'reason',
  'entry_price',
  'stop_loss',
  'sl_distance',
].join(', ');

/** The month row of a trade, as an UPDATE's condition (`t` a trades row reference). */
const BUMP = 'update report_facts set version = version + 1';
const monthOf = (t: string) => `account_id = ${t}.account_id and month = substr(${t}.closed_at, 1, 7)`;
/** The month row of the trade `id` (an expression), looked up. */
const monthOfTrade = (id: string) =>
  `account_id = (select account_id from trades where id = ${id}) and month = (select substr(closed_at, 1, 7) from trades where id = ${id})`;

function sqliteTriggers(): string[] {
  const upsert = (t: string) =>
    `insert into report_facts (account_id, month) select ${t}.account_id, substr(${t}.closed_at, 1, 7) where ${t}.closed_at is not null on conflict (account_id, month) do update set version = version + 1;`;
  const out = [
    `create trigger report_facts_trades_insert after insert on trades begin ${upsert('new')} end`,
    `create trigger report_facts_trades_update after update of ${TRADE_COLUMNS} on trades begin
       ${BUMP} where old.closed_at is not null and ${monthOf('old')};
       ${upsert('new')}
     end`,
    `create trigger report_facts_trades_delete after delete on trades when old.closed_at is not null begin
       ${BUMP} where ${monthOf('old')};
     end`,
  ];
  // Tables that point at a trade: the trade's month changes with them.
  const linked: [table: string, trade: (row: string) => string][] = [
    ['trade_journals', (r) => `${r}.trade_id`],
    ['live_run_trades', (r) => `${r}.trade_id`],
    ['journal_attachments', (r) => `(select trade_id from trade_journals where id = ${r}.journal_id)`],
  ];
  for (const [table, trade] of linked) {
    out.push(
      `create trigger report_facts_${table}_insert after insert on ${table} begin ${BUMP} where ${monthOfTrade(trade('new'))}; end`,
      `create trigger report_facts_${table}_update after update on ${table} begin
         ${BUMP} where ${monthOfTrade(trade('old'))};
         ${BUMP} where ${monthOfTrade(trade('new'))};
       end`,
      `create trigger report_facts_${table}_delete after delete on ${table} begin ${BUMP} where ${monthOfTrade(trade('old'))}; end`,
    );
  }
  return out;
}

function postgresTriggers(): string[] {
  // `set search_path from current`: the functions find report_facts in the schema they were made in.
  const fn = (name: string, body: string) =>
    `create function ${name}() returns trigger language plpgsql set search_path from current as $$
     begin
       ${body}
       return null;
     end $$`;
  const bumpTrade = (id: string) => `${BUMP} where ${monthOfTrade(id)};`;
  const out = [
    fn(
      'report_facts_trades',
      `if tg_op in ('UPDATE', 'DELETE') and old.closed_at is not null then
         ${BUMP} where ${monthOf('old')};
       end if;
       if tg_op in ('INSERT', 'UPDATE') and new.closed_at is not null then
         insert into report_facts (account_id, month) values (new.account_id, substr(new.closed_at, 1, 7))
         on conflict (account_id, month) do update set version = report_facts.version + 1;
       end if;`,
    ),
    `create trigger report_facts_trades after insert or delete or update of ${TRADE_COLUMNS} on trades
     for each row execute function report_facts_trades()`,
  ];
  const linked: [table: string, trade: (row: string) => string][] = [
    ['trade_journals', (r) => `${r}.trade_id`],
    ['live_run_trades', (r) => `${r}.trade_id`],
    ['journal_attachments', (r) => `(select trade_id from trade_journals where id = ${r}.journal_id)`],
  ];
  for (const [table, trade] of linked) {
    out.push(
      fn(
        `report_facts_${table}`,
        `if tg_op in ('UPDATE', 'DELETE') then ${bumpTrade(trade('old'))} end if;
         if tg_op in ('INSERT', 'UPDATE') then ${bumpTrade(trade('new'))} end if;`,
      ),
      `create trigger report_facts_${table} after insert or delete or update on ${table}
       for each row execute function report_facts_${table}()`,
    );
  }
  return out;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = postgres ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable('report_facts')
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    // 'YYYY-MM': substr(closed_at, 1, 7).
    .addColumn('month', 'text', (c) => c.notNull())
    // Raised by the triggers on every write that can change the month's reports.
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    // The version `data` was built from; behind `version`, the month is rebuilt before it is read.
    .addColumn('built_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('data', blob)
    // What MFE/MAE needs besides: ids, entry prices, stop distances (read by that report only).
    .addColumn('trade_data', blob)
    .addPrimaryKeyConstraint('report_facts_pk', ['account_id', 'month'])
    .execute();
  await db.schema
    .createTable('report_excursions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('month', 'text', (c) => c.notNull())
    // The report_facts built_version the trades were read at, and the candle months measured on.
    .addColumn('facts_version', 'bigint', (c) => c.notNull())
    .addColumn('candles_key', 'text', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('report_excursions_pk', ['account_id', 'month'])
    .execute();
  await db.schema
    .alterTable('candle_chunks')
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();
  // Months that already have closed trades start out behind (version 1, built 0).
  await sql`insert into report_facts (account_id, month)
            select distinct account_id, substr(closed_at, 1, 7) from trades where closed_at is not null`.execute(
    db,
  );
  for (const statement of postgres ? postgresTriggers() : sqliteTriggers())
    await (sql.raw(statement) as RawBuilder<unknown>).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const tables = ['trades', 'trade_journals', 'live_run_trades', 'journal_attachments'];
  for (const table of tables) {
    if (postgres) {
      await sql.raw(`drop trigger if exists report_facts_${table} on ${table}`).execute(db);
      await sql.raw(`drop function if exists report_facts_${table}()`).execute(db);
    } else
      for (const op of ['insert', 'update', 'delete'])
        await sql.raw(`drop trigger if exists report_facts_${table}_${op}`).execute(db);
  }
  await db.schema.alterTable('candle_chunks').dropColumn('version').execute();
  await db.schema.dropTable('report_excursions').execute();
  await db.schema.dropTable('report_facts').execute();
}
