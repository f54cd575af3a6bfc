import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('profit_profiles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // lower(trim(name)): one profile per name and user, however it is capitalised.
    .addColumn('name_key', 'text', (c) => c.notNull())
    // JSON array of {r_multiple, size_pct}, in the order the trader gave them.
    .addColumn('partial_targets', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('profit_profiles_user_name')
    .on('profit_profiles')
    .columns(['user_id', 'name_key'])
    .unique()
    .execute();
  // At most one default per user, enforced by the database as well as by the service.
  await db.schema
    .createIndex('profit_profiles_one_default')
    .on('profit_profiles')
    .column('user_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  await db.schema
    .createTable('win_rate_scenarios')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    // JSON of the calculator inputs {growthGoal, riskPerTrade, numTrades, profile, splits}.
    .addColumn('inputs', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('win_rate_scenarios_user_name')
    .on('win_rate_scenarios')
    .columns(['user_id', 'name_key'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('win_rate_scenarios').execute();
  await db.schema.dropTable('profit_profiles').execute();
}
