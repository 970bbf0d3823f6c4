insert into stock (sku, available) values ('apple', 100), ('pear', 100), ('plum', 100);
insert into prices (list, sku, price) values ('retail', 'apple', 0.50), ('retail', 'pear', 0.70);
insert into accounts (id, balance, last_token) values ('acme', 0, 0);
