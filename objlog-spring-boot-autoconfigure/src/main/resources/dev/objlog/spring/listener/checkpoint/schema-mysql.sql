-- objlog listener checkpoints and consumer-group leases, MySQL and MariaDB (InnoDB, utf8mb4).
-- The repository's table prefix replaces "objlog_" when it is not the default.
create table if not exists objlog_checkpoint (
  listener_id     varchar(255)  not null,
  stream_name     varchar(64)   not null,
  partition_id    bigint        not null,
  checkpoint_json varchar(4000) not null,
  version         bigint        not null,
  updated_at      datetime(3)   not null,
  constraint objlog_checkpoint_pk primary key (listener_id, stream_name, partition_id)
) engine = InnoDB default charset = utf8mb4 collate = utf8mb4_bin;

create table if not exists objlog_lease (
  group_id        varchar(255)  not null,
  stream_name     varchar(64)   not null,
  partition_id    bigint        not null,
  owner           varchar(255)  not null,
  lease_until_ms  bigint        not null,
  epoch           bigint        not null,
  updated_at      datetime(3)   not null,
  constraint objlog_lease_pk primary key (group_id, stream_name, partition_id)
) engine = InnoDB default charset = utf8mb4 collate = utf8mb4_bin;
