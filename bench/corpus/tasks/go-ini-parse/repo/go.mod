module example.com/ini

go 1.19
