module example.com/csscolorparser

go 1.19
