create table orders (
    id              varchar(64) primary key,
    status          varchar(16) not null,
    times_processed int         not null
);

-- One row per charge at the payment provider: nothing here stops a second charge of an order.
create table payments (
    order_id  varchar(64)    not null,
    amount    decimal(10, 2) not null,
    charge_id varchar(64)    not null
);

create table stock (
    sku       varchar(32) primary key,
    available int         not null
);

create table prices (
    list  varchar(32)    not null,
    sku   varchar(32)    not null,
    price decimal(10, 2) not null,
    primary key (list, sku)
);

create table accounts (
    id         varchar(32)    primary key,
    balance    decimal(12, 2) not null,
    last_token bigint         not null
);
