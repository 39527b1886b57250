export default function Page() {
  return <div>listing</div>
}
