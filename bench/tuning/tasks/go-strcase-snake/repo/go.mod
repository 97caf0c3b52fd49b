module example.com/strcase

go 1.19
