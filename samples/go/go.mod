module zkpipe/samples/go

go 1.19

require zkpipe v0.0.0

replace zkpipe => ../../abi/go/zkpipe
