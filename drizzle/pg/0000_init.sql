CREATE TABLE "admin_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"stage" text NOT NULL,
	"address" text,
	"user_agent" text,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"totp_sealed" text,
	"totp_pending_sealed" text,
	"totp_last_step" bigint,
	"failed_sign_ins" bigint DEFAULT 0 NOT NULL,
	"locked_until" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"chain" text NOT NULL,
	"height" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_chain_height_pk" PRIMARY KEY("chain","height")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"height" bigint NOT NULL,
	"height_hash" text DEFAULT '' NOT NULL,
	"height_time" bigint DEFAULT 0 NOT NULL,
	"final_height" bigint NOT NULL,
	"reorg_count" bigint DEFAULT 0 NOT NULL,
	"last_reorg_depth" bigint,
	"last_reorg_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"txid" text NOT NULL,
	"event_key" text NOT NULL,
	"block_num" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_timestamp" bigint NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"token_contract" text,
	"symbol" text NOT NULL,
	"amount_base" text NOT NULL,
	"status" text NOT NULL,
	"order_ref" text,
	"unattributed_reason" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"family" text NOT NULL,
	"idx" bigint NOT NULL,
	"address" text NOT NULL,
	"order_ref" text,
	"created_at" bigint NOT NULL,
	"allocated_at" bigint,
	CONSTRAINT "deposit_addresses_family_idx_pk" PRIMARY KEY("family","idx")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"chain" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" bigint NOT NULL,
	"kind" text NOT NULL,
	"available_delta" text NOT NULL,
	"frozen_delta" text NOT NULL,
	"order_ref" text,
	"reason" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_balances" (
	"merchant_id" text NOT NULL,
	"chain" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" bigint NOT NULL,
	"available" text NOT NULL,
	"frozen" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "merchant_balances_merchant_id_chain_symbol_pk" PRIMARY KEY("merchant_id","chain","symbol")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"token_sealed" text NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"callback_url" text,
	"compat" text DEFAULT 'none' NOT NULL,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_costs" (
	"id" text PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" bigint NOT NULL,
	"amount_base" text NOT NULL,
	"sweep_id" text NOT NULL,
	"tx_hash" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"order_id" text NOT NULL,
	"uid" text,
	"type" text NOT NULL,
	"chain" text NOT NULL,
	"symbol" text NOT NULL,
	"token_contract" text,
	"decimals" bigint NOT NULL,
	"amount" text NOT NULL,
	"amount_base" text NOT NULL,
	"fee" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"address" text NOT NULL,
	"receive_address" text,
	"expires_at" bigint NOT NULL,
	"received_base" text DEFAULT '0' NOT NULL,
	"actual_amount_base" text,
	"tx_id" text,
	"tx_from" text,
	"tx_to" text,
	"tx_amount_base" text,
	"tx_block_num" bigint,
	"tx_confirmed_num" bigint,
	"tx_status" text,
	"tx_timestamp" bigint,
	"params_key" text NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_ref" text NOT NULL,
	"chain" text NOT NULL,
	"from_address" text NOT NULL,
	"nonce" bigint,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"status" text NOT NULL,
	"block_num" bigint,
	"valid_until" bigint,
	"error" text,
	"slot" text,
	"replaces_attempt" text,
	"max_fee_per_gas" text,
	"max_priority_fee_per_gas" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"order_ref" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" bigint NOT NULL,
	"resolved_at" bigint,
	"resolution" text,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint NOT NULL,
	"chains" text NOT NULL,
	"addresses" bigint NOT NULL,
	"unexplained" bigint NOT NULL,
	"report" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_nonces" (
	"merchant_id" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "request_nonces_merchant_id_nonce_pk" PRIMARY KEY("merchant_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sweep_txs" (
	"id" text PRIMARY KEY NOT NULL,
	"sweep_id" text NOT NULL,
	"chain" text NOT NULL,
	"role" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"nonce" bigint,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"value_base" text NOT NULL,
	"status" text NOT NULL,
	"block_num" bigint,
	"valid_until" bigint,
	"slot" text,
	"fee_base" text,
	"fee_payer" text,
	"error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sweeps" (
	"id" text PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"deposit_index" bigint NOT NULL,
	"destination" text NOT NULL,
	"destination_kind" text NOT NULL,
	"symbol" text NOT NULL,
	"token_contract" text,
	"decimals" bigint NOT NULL,
	"fee_mode" text NOT NULL,
	"amount_base" text NOT NULL,
	"fee_estimate_base" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"held" boolean DEFAULT false NOT NULL,
	"tries" bigint DEFAULT 0 NOT NULL,
	"next_try_at" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"final_at" bigint
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"chain" text NOT NULL,
	"symbol" text NOT NULL,
	"contract" text,
	"decimals" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tx_fees" (
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"fee_base" text NOT NULL,
	CONSTRAINT "tx_fees_chain_tx_hash_pk" PRIMARY KEY("chain","tx_hash")
);
--> statement-breakpoint
CREATE TABLE "wallet_floats" (
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"symbol" text NOT NULL,
	"float_base" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "wallet_floats_chain_address_symbol_pk" PRIMARY KEY("chain","address","symbol")
);
--> statement-breakpoint
CREATE TABLE "wallet_leases" (
	"chain" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text NOT NULL,
	"attempted_at" bigint NOT NULL,
	"status_code" bigint,
	"latency_ms" bigint NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"order_ref" text,
	"order_version" bigint NOT NULL,
	"notify_type" text NOT NULL,
	"data" text NOT NULL,
	"status" text NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"retry_until" bigint,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
CREATE INDEX "admin_sessions_user" ON "admin_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "admin_sessions_expires" ON "admin_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "admin_users_email" ON "admin_users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_key" ON "chain_transfers" USING btree ("chain","txid","event_key");--> statement-breakpoint
CREATE INDEX "chain_transfers_order" ON "chain_transfers" USING btree ("order_ref");--> statement-breakpoint
CREATE INDEX "chain_transfers_chain_status" ON "chain_transfers" USING btree ("chain","status");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address" ON "deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE INDEX "deposit_addresses_free" ON "deposit_addresses" USING btree ("family","idx") WHERE order_ref IS NULL;--> statement-breakpoint
CREATE INDEX "ledger_entries_merchant" ON "ledger_entries" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_order_kind" ON "ledger_entries" USING btree ("order_ref","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_costs_tx" ON "operator_costs" USING btree ("chain","tx_hash","kind");--> statement-breakpoint
CREATE INDEX "operator_costs_chain" ON "operator_costs" USING btree ("chain","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_merchant_order" ON "orders" USING btree ("merchant_id","order_id");--> statement-breakpoint
CREATE INDEX "orders_status_expires" ON "orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "orders_chain_type_expires" ON "orders" USING btree ("chain","type","expires_at");--> statement-breakpoint
CREATE INDEX "orders_created" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_uid" ON "orders" USING btree ("uid") WHERE uid IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_receive_address" ON "orders" USING btree ("receive_address") WHERE receive_address IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_merchant_payouts" ON "orders" USING btree ("merchant_id","created_at") WHERE type = 'PAYOUT';--> statement-breakpoint
CREATE INDEX "orders_open_payouts" ON "orders" USING btree ("chain","status") WHERE type = 'PAYOUT' AND status IN ('INIT', 'PENDING', 'PENDING_CONFIRMATION');--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_tx" ON "payout_attempts" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_slot_nonce" ON "payout_attempts" USING btree ("chain","from_address","nonce") WHERE replaces_attempt IS NULL;--> statement-breakpoint
CREATE INDEX "payout_attempts_order" ON "payout_attempts" USING btree ("order_ref");--> statement-breakpoint
CREATE INDEX "payout_attempts_status" ON "payout_attempts" USING btree ("chain","status");--> statement-breakpoint
CREATE INDEX "payout_attempts_recent" ON "payout_attempts" USING btree ("chain","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_holds_open" ON "payout_holds" USING btree ("order_ref","kind") WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE INDEX "payout_holds_kind" ON "payout_holds" USING btree ("kind","resolved_at");--> statement-breakpoint
CREATE INDEX "reconciliations_finished" ON "reconciliations" USING btree ("finished_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_txs_tx" ON "sweep_txs" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_txs_nonce" ON "sweep_txs" USING btree ("chain","from_address","nonce") WHERE nonce IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sweep_txs_sweep" ON "sweep_txs" USING btree ("sweep_id");--> statement-breakpoint
CREATE INDEX "sweep_txs_status" ON "sweep_txs" USING btree ("chain","status");--> statement-breakpoint
CREATE UNIQUE INDEX "sweeps_open" ON "sweeps" USING btree ("chain","address","symbol") WHERE status NOT IN ('final', 'failed');--> statement-breakpoint
CREATE INDEX "sweeps_status" ON "sweeps" USING btree ("chain","status");--> statement-breakpoint
CREATE INDEX "sweeps_address" ON "sweeps" USING btree ("chain","address");--> statement-breakpoint
CREATE INDEX "sweeps_created" ON "sweeps" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_network_chain_symbol" ON "tokens" USING btree ("network","chain","symbol");--> statement-breakpoint
CREATE INDEX "webhook_attempts_event" ON "webhook_attempts" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_due" ON "webhook_events" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_events_order" ON "webhook_events" USING btree ("order_ref","order_version");--> statement-breakpoint
CREATE INDEX "webhook_events_merchant" ON "webhook_events" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_created" ON "webhook_events" USING btree ("created_at");