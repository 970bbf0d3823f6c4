insert into stock (sku, available) values ('apple', 100), ('pear', 100), ('plum', 100);
