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
import * as m0070 from './0070_candle_chunks';
import * as m0075 from './0075_chart_snapshot_configs';
import * as m0076 from './0076_snapshot_tasks';
import * as m0080 from './0080_jobs';
import * as m0081 from './0081_analysis_instruments';
import * as m0050 from './0050_trade_request_body';
import * as m0060 from './0060_security';
import * as m0090 from './0090_bots';
import * as m0095 from './0095_live_runs';
import * as m0096 from './0096_report_facts';
import * as m0097 from './0097_live_run_stops';
import * as m0098 from './0098_user_settings';

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
  '0070_candle_chunks': m0070,
  '0075_chart_snapshot_configs': m0075,
  '0076_snapshot_tasks': m0076,
  '0080_jobs': m0080,
  '0081_analysis_instruments': m0081,
  '0050_trade_request_body': m0050,
  '0060_security': m0060,
  '0090_bots': m0090,
  '0095_live_runs': m0095,
  '0096_report_facts': m0096,
  '0097_live_run_stops': m0097,
  '0098_user_settings': m0098,
};
