"""One module per paper, named by its key; frank_wolfe.py is shared by erm_geometry and lasso."""
