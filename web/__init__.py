"""The teaching web app (`liuren serve`): pages and their JSON twins over the application layer."""
