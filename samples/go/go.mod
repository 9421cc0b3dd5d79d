module zkpipe/samples/go

go 1.19
