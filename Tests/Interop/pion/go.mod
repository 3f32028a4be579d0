module rtcswarmpion

go 1.19
