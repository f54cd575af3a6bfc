import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_accounts';
import * as m0003 from './0003_sim_broker';
import * as m0004 from './0004_demo_accounts';
import * as m0010 from './0010_win_rate';
import * as m0011 from './0011_risk_settings';
import * as m0030 from './0030_trades';
import * as m0031 from './0031_journals';
import * as m0040 from './0040_history_sync';
import * as m0041 from './0041_history_indexes';

/** Every migration, by a name that sorts in the order they must run. Append only. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_accounts': m0002,
  '0003_sim_broker': m0003,
  '0004_demo_accounts': m0004,
  '0010_win_rate': m0010,
  '0011_risk_settings': m0011,
  '0030_trades': m0030,
  '0031_journals': m0031,
  '0040_history_sync': m0040,
  '0041_history_indexes': m0041,
};
