create table orders (
    id              varchar(64) primary key,
    status          varchar(16) not null,
    times_processed int         not null
);

create table payments (
    order_id varchar(64) primary key,
    amount   decimal(10, 2) not null
);

create table stock (
    sku       varchar(32) primary key,
    available int         not null
);
