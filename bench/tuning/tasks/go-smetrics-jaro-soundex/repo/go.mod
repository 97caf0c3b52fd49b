module example.com/smetrics

go 1.19
