CREATE TABLE `chain_blocks` (
	`chain` text NOT NULL,
	`height` integer NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`chain`, `height`)
);
--> statement-breakpoint
ALTER TABLE `chain_cursors` ADD `reorg_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chain_cursors` ADD `last_reorg_depth` integer;--> statement-breakpoint
ALTER TABLE `chain_cursors` ADD `last_reorg_at` integer;